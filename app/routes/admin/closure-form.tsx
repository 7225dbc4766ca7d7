// The admin's closed day form (closures.tsx), with conform's form state and the form's zod schema,
// loaded after the page is interactive, not with it (docs/decisions/0003-first-load-javascript-budget.md):
// the server renders it as always, and without JavaScript it is a plain form.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { useTranslation } from "../../i18n.ts";
import { Field, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { useClientValidation } from "../../components/client-validation.ts";
import { CALENDAR_REASON_MAX } from "../../../contract/constants.ts";

// conform's zod parse and the schemas, loaded at the user's first act (components/client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("../../availability-schemas.ts")]);

export function ClosureForm({ today, result }: { today: string; result: SubmissionResult | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "closure",
    lastResult: result,
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.closureSchema(today) }),
    ),
  });
  return (
    <Form method="post" preventScrollReset className="space-y-4" {...getFormProps(form)}>
      <h2 className="text-lg font-semibold">{t("admin:closures.addTitle")}</h2>
      <FormAlert message={form.errors?.[0]} />
      <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
        <Field
          key={fields.date.key}
          label={t("admin:closures.date")}
          type="date"
          min={today}
          id={fields.date.id}
          name={fields.date.name}
          defaultValue={fields.date.initialValue}
          errors={fields.date.errors}
        />
        <Field
          key={fields.reason.key}
          label={t("admin:closures.reason")}
          hint={t("admin:closures.reasonHint")}
          maxLength={CALENDAR_REASON_MAX}
          id={fields.reason.id}
          name={fields.reason.name}
          defaultValue={fields.reason.initialValue}
          errors={fields.reason.errors}
        />
      </div>
      <SubmitButton name="intent" value="closure">
        {t("admin:closures.add")}
      </SubmitButton>
    </Form>
  );
}
