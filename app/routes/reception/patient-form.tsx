// The desk's new patient form (patients.tsx), with conform's form state and the form's zod schema
// (and the phone library with it), loaded after the page is interactive
// (docs/decisions/0003-first-load-javascript-budget.md): the server renders it as always, and
// without JavaScript it is a plain form.
import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { useTranslation } from "../../i18n.ts";
import { Field, FormAlert, SelectField, SubmitButton } from "../../components/forms.tsx";
import { useClientValidation, useFocusOnRefusal } from "../../components/client-validation.ts";
import { LANGUAGES } from "../../../contract/constants.ts";

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./patient-schema.ts")]);

export function PatientForm({
  today,
  phone,
  result,
  idempotencyKey,
}: {
  today: string;
  /** The number a search or a walk-in did not find, typed for the desk. */
  phone: string;
  result: SubmissionResult<string[]> | undefined;
  idempotencyKey: string;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "patient",
    lastResult: result,
    defaultValue: { phone, language: "fr" },
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.patientSchema(today) }),
    ),
  });
  useFocusOnRefusal(form.id, result);
  return (
    <Form method="post" preventScrollReset className="space-y-4" {...getFormProps(form)}>
      <h2 className="text-lg font-semibold">{t("reception:patients.newTitle")}</h2>
      <FormAlert message={form.errors?.[0]} />
      <input type="hidden" name="form" value="patient" />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <Field
        label={t("reception:patients.name")}
        {...getInputProps(fields.username, { type: "text" })}
        autoComplete="off"
        errors={fields.username.errors}
      />
      <Field
        label={t("reception:patients.newPhone")}
        hint={t("reception:patients.phoneHint")}
        {...getInputProps(fields.phone, { type: "tel" })}
        autoComplete="off"
        errors={fields.phone.errors}
      />
      <Field
        label={t("reception:patients.newEmail")}
        {...getInputProps(fields.email, { type: "email" })}
        autoComplete="off"
        errors={fields.email.errors}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t("reception:patients.dateOfBirth")}
          {...getInputProps(fields.dateOfBirth, { type: "date" })}
          max={today}
          errors={fields.dateOfBirth.errors}
        />
        <SelectField label={t("reception:patients.language")} {...getSelectProps(fields.language)}>
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {t(`common:language.${language}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <label className="flex items-start gap-2 text-sm">
        <input {...getInputProps(fields.smsConsent, { type: "checkbox" })} className="mt-1" />
        {t("reception:patients.smsConsent")}
      </label>
      <SubmitButton>{t("reception:patients.create")}</SubmitButton>
    </Form>
  );
}
