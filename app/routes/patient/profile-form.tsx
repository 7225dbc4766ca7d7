// The patient's profile edit form (?edit=1), loaded after the page is interactive (profile.tsx).
import { useTranslation } from "../../i18n.ts";
import type { Route } from "./+types/profile";
import { Field, TextAreaField } from "../../components/forms.tsx";
import { getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { useClientValidation, useFocusOnRefusal } from "../../components/client-validation.ts";
import { GenderField, ProfileForm, sharedDefaults } from "../../components/profile-form.tsx";
import type { PatientProfile } from "../../../contract/patient.ts";

type LoaderData = Route.ComponentProps["loaderData"];
type ActionData = Extract<Route.ComponentProps["actionData"], { result: unknown }> | undefined;

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./profile-schema.ts")]);

export function EditForm({ d, p, actionData }: { d: LoaderData; p: PatientProfile; actionData: ActionData }) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "patient-profile",
    lastResult: actionData?.result,
    defaultValue: {
      ...sharedDefaults(p),
      phone: p.phone ?? "",
      profession: p.profession ?? "",
      address: p.address ?? "",
    },
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.patientProfileSchema }),
    ),
  });
  useFocusOnRefusal(form.id, actionData?.result);
  return (
    <ProfileForm role="patient" form={form} data={d} reloaded={actionData}>
      <Field
        label={t("patient:profile.username")}
        {...getInputProps(fields.username, { type: "text" })}
        autoComplete="name"
        errors={fields.username.errors}
      />
      <Field
        label={t("patient:profile.phone")}
        {...getInputProps(fields.phone, { type: "tel" })}
        autoComplete="tel"
        errors={fields.phone.errors}
      />
      <GenderField role="patient" {...getSelectProps(fields.gender)} />
      <Field
        label={t("patient:profile.profession")}
        {...getInputProps(fields.profession, { type: "text" })}
        autoComplete="organization-title"
      />
      <TextAreaField
        label={t("patient:profile.address")}
        {...getTextareaProps(fields.address)}
        rows={3}
        className="sm:col-span-2"
        autoComplete="street-address"
      />
    </ProfileForm>
  );
}
