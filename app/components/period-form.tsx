// The form that closes a period of the calendar (calendar-periods.tsx): a doctor's absence (from,
// to) or the clinic's closed day (one date), one operation on two scopes. It comes with conform's
// form state and loads after the page is interactive, not with it, and the form's zod schema loads
// at the user's first act (docs/decisions/0003-first-load-javascript-budget.md): the server renders
// it as always, and without JavaScript it is a plain form.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { useTranslation } from "../i18n.ts";
import { Field, FormAlert, SubmitButton } from "./forms.tsx";
import { useClientValidation } from "./client-validation.ts";
import { CALENDAR_REASON_MAX } from "../../contract/constants.ts";

// conform's zod parse and the schemas, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("../availability-schemas.ts")]);

type Schemas = Awaited<ReturnType<typeof loadValidation>>[1];

/**
 * What differs between the two scopes: the schema, the date fields (`fromToday`: the field's `min`
 * is today), the texts (translation keys), and the heading's level on its page. The scope's name is
 * also the form's id and the submit button's intent.
 */
const SCOPES = {
  absence: {
    schema: (schemas: Schemas, today: string) => schemas.absenceSchema(today),
    heading: 3,
    title: "doctor:availability.addAbsence",
    // An absence may have begun already; it must not be over (absenceSchema).
    dates: [
      { name: "from", label: "doctor:availability.from", fromToday: false },
      { name: "to", label: "doctor:availability.to", fromToday: true },
    ],
    reason: "doctor:availability.reason",
    reasonHint: null,
    submit: "doctor:availability.declareAbsence",
  },
  closure: {
    schema: (schemas: Schemas, today: string) => schemas.closureSchema(today),
    heading: 2,
    title: "admin:closures.addTitle",
    dates: [{ name: "date", label: "admin:closures.date", fromToday: true }],
    reason: "admin:closures.reason",
    reasonHint: "admin:closures.reasonHint",
    submit: "admin:closures.add",
  },
} as const;

export type PeriodScope = keyof typeof SCOPES;

/** A new absence or closed day (`scope`), from `today` (clinic time); `result`, the server's answer to the last one sent. */
export function PeriodForm({
  scope,
  today,
  result,
}: {
  scope: PeriodScope;
  today: string;
  result: SubmissionResult | undefined;
}) {
  const { t } = useTranslation();
  const { schema, heading, title, dates, reason, reasonHint, submit } = SCOPES[scope];
  const [form, fields] = useForm({
    id: scope,
    lastResult: result,
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schema(schemas, today) }),
    ),
  });
  const field = (name: keyof typeof fields) => fields[name];
  const reasonField = (
    <Field
      key={field("reason").key}
      label={t(reason)}
      hint={reasonHint ? t(reasonHint) : undefined}
      maxLength={CALENDAR_REASON_MAX}
      id={field("reason").id}
      name={field("reason").name}
      defaultValue={field("reason").initialValue}
      errors={field("reason").errors}
    />
  );
  // One date leaves room for the reason on its row; two dates fill theirs, the reason goes below.
  const reasonBeside = dates.length === 1;
  return (
    <Form method="post" preventScrollReset className="space-y-4" {...getFormProps(form)}>
      {heading === 2 ? (
        <h2 className="text-lg font-semibold">{t(title)}</h2>
      ) : (
        <h3 className="font-semibold text-slate-900">{t(title)}</h3>
      )}
      <FormAlert message={form.errors?.[0]} />
      <div className={`grid gap-4 ${reasonBeside ? "sm:grid-cols-[12rem_1fr]" : "sm:grid-cols-2"}`}>
        {dates.map(({ name, label, fromToday }) => (
          <Field
            // conform's key changes when the form is reset, to show its values again.
            key={`${name}${field(name).key ?? ""}`}
            label={t(label)}
            type="date"
            min={fromToday ? today : undefined}
            id={field(name).id}
            name={field(name).name}
            defaultValue={field(name).initialValue}
            errors={field(name).errors}
          />
        ))}
        {reasonBeside ? reasonField : null}
      </div>
      {reasonBeside ? null : reasonField}
      <SubmitButton name="intent" value={scope}>
        {t(submit)}
      </SubmitButton>
    </Form>
  );
}
