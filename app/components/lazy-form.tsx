// A form whose enhancement (conform's form state: client validation, errors as the user types,
// focus on the first wrong field) loads after the page is interactive, for the pages whose form IS
// the page (docs/decisions/0003-first-load-javascript-budget.md). Those forms work without
// JavaScript, so until the enhancement arrives the server-rendered form is already right: a submit
// is validated by the route's action, as without JavaScript.
//
//   const [form, fields, enhancer] = useLazyForm({ lastResult: actionData?.result, ...validation });
//   return <Form {...getFormProps(form)}>{enhancer} ...</Form>;
//
// The form renders with conform's metadata computed without conform (plain-form.ts) on the server
// and during hydration; once the module has come, `enhancer` (which renders nothing) runs conform's
// `useForm` and hands its metadata back, and the same elements re-render with it. Nothing is
// mounted again, so what the user typed before, the focus and the caret stay where they were.
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import {
  type FieldMetadata,
  type FormMetadata,
  getFormProps as conformFormProps,
  getInputProps as conformInputProps,
  getSelectProps as conformSelectProps,
  getTextareaProps as conformTextareaProps,
  type useForm,
} from "@conform-to/react";
import type { Bridge, BridgeOptions, Metadata } from "./conform-bridge.tsx";
import { type PlainField, type PlainFields, type PlainFormMetadata, plainForm } from "./plain-form.ts";

export type { PlainFormMetadata as LazyFormMetadata };

// conform's helpers for a lazy form's metadata, which is the plain form's until conform has come
// (its type says only what both give). They read a form's id, onSubmit, noValidate, errorId, errors
// and valid, and a field's id, name, formId, errorId, errors, valid, initialValue and constraints
// (@conform-to/react 1.x, helpers.mjs): all of which the plain form has.
type ConformField = FieldMetadata<unknown, Record<string, unknown>, string[]>;
export const getFormProps = <Schema extends Record<string, unknown>>(form: PlainFormMetadata<Schema>, options?: Parameters<typeof conformFormProps>[1]) =>
  conformFormProps(form as unknown as FormMetadata<Schema, string[]>, options);
export const getInputProps = <Options extends Parameters<typeof conformInputProps>[1]>(field: PlainField, options: Options) =>
  conformInputProps(field as ConformField, options);
export const getSelectProps = (field: PlainField, options?: Parameters<typeof conformSelectProps>[1]) => conformSelectProps(field as ConformField, options);
export const getTextareaProps = (field: PlainField, options?: Parameters<typeof conformTextareaProps>[1]) => conformTextareaProps(field as ConformField, options);

const loadBridge = () => import("./conform-bridge.tsx");
// Once loaded, later forms (a navigation in the browser) take conform's metadata from their first
// commit, before the browser paints.
let loaded: Bridge | undefined;

/** Focuses the first field of the form, in the document's order, that has an error: conform's rule. */
function focusFirstWrongField(formId: string, errors: Record<string, string[] | null> | undefined) {
  for (const element of document.forms.namedItem(formId)?.elements ?? []) {
    const field = element instanceof HTMLInputElement ? !["submit", "button", "reset"].includes(element.type) : element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement;
    if (field && errors?.[(element as HTMLInputElement).name]?.length) {
      (element as HTMLElement).focus();
      return;
    }
  }
}

export function useLazyForm<Schema extends Record<string, unknown>>(
  options: Parameters<typeof useForm<Schema>>[0],
): [PlainFormMetadata<Schema>, PlainFields<Schema>, ReactNode] {
  const generatedId = useId();
  const formId = options.id ?? generatedId;
  const [ConformBridge, setBridge] = useState(() => loaded);
  const [enhanced, setEnhanced] = useState<Metadata>();
  useEffect(() => {
    if (ConformBridge) return;
    let live = true;
    loadBridge().then(
      (module) => {
        loaded = module.ConformBridge;
        if (live) setBridge(() => module.ConformBridge);
      },
      // A chunk that fails to load leaves the plain form, validated by the server.
      () => {},
    );
    return () => {
      live = false;
    };
  }, [ConformBridge]);
  // A server's answer with errors moves the focus to the first wrong field, as conform does with it
  // (its `report`): before conform has come, the plain form does it. So does an answer the page was
  // loaded with, once hydrated: a form sent as a document (before hydration, or without the
  // language's texts: root.tsx) lands on the server's page, where nothing else would move it.
  const lastResult = options.lastResult;
  const reported = useRef<typeof lastResult>(undefined);
  useEffect(() => {
    if (lastResult === reported.current) return;
    reported.current = lastResult;
    if (ConformBridge || lastResult?.status !== "error") return;
    focusFirstWrongField(formId, lastResult.error);
  }, [lastResult, ConformBridge, formId]);
  // The bridge reads the latest options through this ref, and re-renders (memo) only when what
  // conform must see changes: otherwise each hand-back would re-render it, and it would hand back
  // again.
  const latest = useRef(options as BridgeOptions);
  latest.current = { ...(options as BridgeOptions), id: formId };
  const [form, fields] = (enhanced as ReturnType<typeof plainForm<Schema>> | undefined) ?? plainForm<Schema>(formId, options);
  const enhancer = ConformBridge ? (
    <ConformBridge
      options={latest}
      formId={formId}
      lastResult={options.lastResult}
      validates={Boolean(options.onValidate)}
      shouldValidate={options.shouldValidate}
      shouldRevalidate={options.shouldRevalidate}
      onChange={setEnhanced}
    />
  ) : null;
  return [form, fields, enhancer];
}
