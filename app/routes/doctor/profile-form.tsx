// The doctor's profile edit form (?edit=1), loaded after the page is interactive (profile.tsx).
import { useTranslation } from "../../i18n.ts";
import { Field, TextAreaField } from "../../components/forms.tsx";
import { getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { useClientValidation, useFocusOnRefusal } from "../../components/client-validation.ts";
import { GenderField, ProfileForm, sharedDefaults } from "../../components/profile-form.tsx";
import type { Route } from "./+types/profile";

type ActionData = Route.ComponentProps["actionData"];
type ProfileData = Extract<Route.ComponentProps["loaderData"], { gate: false }>;

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./profile-schema.ts")]);

export function EditForm({ data: d, actionData }: { data: ProfileData; actionData: ActionData }) {
  const { t } = useTranslation();
  const submitted = actionData && "result" in actionData ? actionData : null;
  const p = d.profile;
  const [form, fields] = useForm({
    id: "doctor-profile",
    lastResult: submitted?.result,
    defaultValue: {
      ...sharedDefaults(p),
      contact: p.contact ?? "",
      serial_number: p.serial_number ?? "",
      duty_hospital: p.duty_hospital ?? "",
      biography: p.biography ?? "",
    },
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.doctorProfileSchema }),
    ),
  });
  useFocusOnRefusal(form.id, submitted?.result);
  return (
    <ProfileForm role="doctor" form={form} data={d} reloaded={submitted}>
      <Field
        label={t("doctor:profile.username")}
        {...getInputProps(fields.username, { type: "text" })}
        autoComplete="name"
        errors={fields.username.errors}
      />
      <Field
        label={t("doctor:profile.contact")}
        {...getInputProps(fields.contact, { type: "tel" })}
        autoComplete="tel"
        errors={fields.contact.errors}
      />
      <GenderField role="doctor" {...getSelectProps(fields.gender)} />
      <Field
        label={t("doctor:profile.serial")}
        {...getInputProps(fields.serial_number, { type: "text" })}
        errors={fields.serial_number.errors}
      />
      <Field
        label={t("doctor:profile.dutyHospital")}
        {...getInputProps(fields.duty_hospital, { type: "text" })}
        className="sm:col-span-2"
      />
      <TextAreaField
        label={t("doctor:profile.biography")}
        {...getTextareaProps(fields.biography)}
        rows={4}
        className="sm:col-span-2"
      />
    </ProfileForm>
  );
}
