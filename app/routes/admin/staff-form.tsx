// The admin's new receptionist form (staff.tsx), with conform's form state and the form's zod schema,
// loaded after the page is interactive (docs/decisions/0003-first-load-javascript-budget.md): the
// server renders it as always, and without JavaScript it is a plain form.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { useTranslation } from "../../i18n.ts";
import { Field, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { useClientValidation, useFocusOnRefusal } from "../../components/client-validation.ts";
import { DoctorChoice, type DoctorsFound } from "./doctor-choice.tsx";

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./staff-schema.ts")]);

export function StaffForm({
  found,
  searchForm,
  result,
  idempotencyKey,
}: {
  found: DoctorsFound;
  searchForm: string;
  result: SubmissionResult | undefined;
  idempotencyKey: string;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "staff",
    lastResult: result,
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.staffSchema }),
    ),
  });
  useFocusOnRefusal(form.id, result);
  // After a refusal, the doctors sent: they were on the page, which the same search lists again.
  const initial = fields.doctorIds.initialValue;
  const sent = new Set(Array.isArray(initial) ? initial.map(String) : initial ? [String(initial)] : []);
  return (
    <Form method="post" preventScrollReset className="space-y-4" {...getFormProps(form)}>
      <h2 className="text-lg font-semibold">{t("admin:staff.createTitle")}</h2>
      <p className="text-sm text-slate-700">{t("admin:staff.createHint")}</p>
      <FormAlert message={form.errors?.[0]} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <Field
        label={t("admin:staff.name")}
        {...getInputProps(fields.username, { type: "text" })}
        autoComplete="off"
        errors={fields.username.errors}
      />
      <Field
        label={t("admin:staff.email")}
        {...getInputProps(fields.email, { type: "email" })}
        autoComplete="off"
        errors={fields.email.errors}
      />
      <DoctorChoice
        found={found}
        chosen={found.doctors.filter((d) => sent.has(d.id))}
        idPrefix="staff-new"
        searchForm={searchForm}
        errors={fields.doctorIds.errors}
      />
      <SubmitButton name="intent" value="create">
        {t("admin:staff.create")}
      </SubmitButton>
    </Form>
  );
}
