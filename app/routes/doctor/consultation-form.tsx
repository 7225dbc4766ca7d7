// The new and edit consultation form of the consultations page (consultations.tsx). It shows only in
// its dialog (?new=1, ?edit=<id>), so its code, and conform's form state with it, load after the
// page is interactive instead of with it (docs/decisions/0003-first-load-javascript-budget.md).
import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { useTranslation } from "../../i18n.ts";
import { Form, Link } from "react-router";
import { Dialog } from "../../components/dialog.tsx";
import { FormAlert, SelectField, SubmitButton, TextAreaField } from "../../components/forms.tsx";
import { useClientValidation } from "../../components/client-validation.ts";
import type { PatientOption } from "../../../contract/doctor-profile.ts";
import type { Consultation } from "../../../contract/consultation.ts";
import { CONSULTATION_TYPES } from "../../../contract/constants.ts";

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./consultation-schema.ts")]);

function ConsultationForm({
  consultation,
  patients,
  idempotencyKey,
  closeTo,
  result,
}: {
  consultation: Consultation | null;
  patients: PatientOption[];
  idempotencyKey: string;
  closeTo: string;
  result: SubmissionResult | null | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: consultation ? `consultation-${consultation.id}` : "consultation-new",
    lastResult: result,
    defaultValue: consultation
      ? {
          patientId: consultation.patientId,
          type: consultation.type,
          diagnosis: consultation.diagnosis,
          notes: consultation.notes,
          prescription: consultation.prescription.join("\n"),
        }
      : { type: "consultation" },
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.consultationSchema }),
    ),
  });
  return (
    <Form method="post" preventScrollReset className="space-y-4" {...getFormProps(form)}>
      <FormAlert message={form.errors?.[0]} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {consultation ? (
        <>
          <input type="hidden" name="consultationId" value={consultation.id} />
          <input {...getInputProps(fields.patientId, { type: "hidden" })} />
          <p className="text-sm">
            <span className="font-medium text-slate-700">{t("doctor:consultations.patient")}: </span>
            {consultation.patientName}
          </p>
        </>
      ) : (
        <SelectField
          label={t("doctor:consultations.patient")}
          {...getSelectProps(fields.patientId)}
          errors={fields.patientId.errors}
        >
          <option value="">
            {patients.length ? t("doctor:consultations.choosePatient") : t("doctor:consultations.noPatients")}
          </option>
          {patients.map((p) => (
            <option key={p.id} value={p.id}>
              {p.username}
            </option>
          ))}
        </SelectField>
      )}
      <SelectField label={t("doctor:consultations.type")} {...getSelectProps(fields.type)} errors={fields.type.errors}>
        {CONSULTATION_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`doctor:consultationType.${type}`)}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label={t("doctor:consultations.diagnosis")}
        {...getTextareaProps(fields.diagnosis)}
        rows={2}
        errors={fields.diagnosis.errors}
      />
      <TextAreaField label={t("doctor:consultations.notes")} {...getTextareaProps(fields.notes)} rows={4} />
      <div>
        <TextAreaField
          label={t("doctor:consultations.prescription")}
          {...getTextareaProps(fields.prescription)}
          rows={4}
          aria-describedby="prescription-hint"
        />
        <p id="prescription-hint" className="mt-1 text-xs text-slate-600">
          {t("doctor:consultations.prescriptionHint")}
        </p>
      </div>
      <div className="flex justify-end gap-2">
        <Link to={closeTo} preventScrollReset className="btn-secondary">
          {t("doctor:consultations.cancel")}
        </Link>
        <SubmitButton>{t("doctor:consultations.save")}</SubmitButton>
      </div>
    </Form>
  );
}

type FormProps = Parameters<typeof ConsultationForm>[0];

/** The form in its dialog: the dialog's frame too is needed only when a consultation is written. */
export function ConsultationDialog({ title, ...form }: FormProps & { title: string }) {
  return (
    <Dialog title={title} closeTo={form.closeTo} size="lg">
      <ConsultationForm key={form.consultation?.id ?? "new"} {...form} />
    </Dialog>
  );
}
