// plainForm must give what conform's useForm gives on its first render: the server renders a lazy
// form with it, and the page hydrates with it before conform takes over (lazy-form.tsx).
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { type SubmissionResult, useForm } from "@conform-to/react";
import { describe, expect, it } from "vitest";
// conform's helpers, through the lazy form's (which take what the plain form gives, and pass it on).
import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "./lazy-form.tsx";
import { plainForm } from "./plain-form.ts";

type Fields = ReturnType<typeof plainForm<Record<string, unknown>>>;

const NAMES = ["email", "password", "age", "subscribed", "when", "choice", "note", "empty", "missing"] as const;

function view([form, fields]: Fields): ReactNode {
  const f = fields as unknown as Record<string, Fields[1][string]>;
  const read = (name: string) => ({
    id: f[name].id,
    errorId: f[name].errorId,
    initialValue: f[name].initialValue,
    defaultValue: f[name].defaultValue,
    errors: f[name].errors,
    valid: f[name].valid,
  });
  return createElement(
    "form",
    { ...getFormProps(form), "data-status": form.status, "data-errors": JSON.stringify(form.errors ?? null) },
    createElement("input", getInputProps(f.email, { type: "email" })),
    createElement("input", getInputProps(f.password, { type: "password" })),
    createElement("input", getInputProps(f.age, { type: "number" })),
    createElement("input", getInputProps(f.subscribed, { type: "checkbox" })),
    createElement("input", getInputProps(f.when, { type: "date" })),
    createElement("input", getInputProps(f.choice, { type: "radio", value: "b" })),
    createElement("textarea", getTextareaProps(f.note)),
    createElement("select", getSelectProps(f.empty), createElement("option", { value: "" })),
    createElement("pre", null, JSON.stringify(NAMES.map(read))),
  );
}

function WithConform(props: { lastResult?: SubmissionResult<string[]>; defaultValue?: Record<string, unknown> }) {
  // conform types defaultValue by the schema; any value is serialized the same way at run time.
  return view(useForm({ id: "f", ...(props as Parameters<typeof useForm>[0]) }) as unknown as Fields);
}

function Plain(props: { lastResult?: SubmissionResult<string[]>; defaultValue?: Record<string, unknown> }) {
  return view(plainForm("f", props));
}

const cases: [string, { lastResult?: SubmissionResult<string[]>; defaultValue?: Record<string, unknown> }][] = [
  ["nothing", {}],
  [
    "default values of every kind",
    { defaultValue: { email: "a@b.c", password: "", age: 42, subscribed: true, when: new Date("2026-11-24T10:00:00Z"), choice: "b", note: null, empty: undefined } },
  ],
  ["a false checkbox", { defaultValue: { subscribed: false, age: 0 } }],
  [
    "a refused submission",
    {
      defaultValue: { email: "ignored@b.c" },
      lastResult: {
        status: "error",
        initialValue: { email: "not-an-address", age: "3", note: "x", choice: "b" },
        error: { "": ["auth:login.failed"], email: ["auth:validation.email"], password: ["auth:validation.passwordRequired"], note: null },
      },
    },
  ],
];

describe("plainForm", () => {
  it.each(cases)("renders as conform's first render: %s", (_, props) => {
    const expected = renderToString(createElement(WithConform, props));
    expect(renderToString(createElement(Plain, props))).toBe(expected);
    expect(expected).toContain('id="f-email"');
  });
});

describe("plainForm's type", () => {
  it("has only what the plain form gives: a use of conform's intents, context or lists does not compile", () => {
    const [form, fields] = plainForm<{ name: string; tags: string[]; address: { city: string } }>("f", {});
    const lacking = [
      // @ts-expect-error conform's intents come with its form state only
      form.reset,
      // @ts-expect-error
      form.update,
      // @ts-expect-error
      form.insert,
      // @ts-expect-error
      form.validate,
      // @ts-expect-error
      form.context,
      // @ts-expect-error a list's items are conform's
      fields.tags.getFieldList,
      // @ts-expect-error a nested field's fieldset is conform's
      fields.address.getFieldset,
      // @ts-expect-error
      fields.name.key,
      // @ts-expect-error
      fields.name.allErrors,
    ];
    expect(lacking).toEqual(lacking.map(() => undefined));
    expect(fields.name.id).toBe("f-name");
    expect(form.getFieldset().name.name).toBe("name");
  });
});
