// The book and request dialogs of the find-a-doctor page (doctors.tsx). They are open only when the
// URL says so (?book=…, ?request=1), so their code, and conform's form state with it, load after the
// page is interactive instead of with it (docs/decisions/0003-first-load-javascript-budget.md). The
// book dialog is shared with the front desk (book-dialog.tsx).
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { useState } from "react";
import { useHydrated, useTranslation } from "../../i18n.ts";
import { Form, Link, useLocation } from "react-router";
import type { Route } from "./+types/doctors";
import { Dialog } from "../../components/dialog.tsx";
import { withParams } from "../../url.ts";
import { Field, FormAlert, SelectField, SubmitButton, TextAreaField } from "../../components/forms.tsx";
import { useClientValidation } from "../../components/client-validation.ts";
import { CountryCityFields } from "../../components/country-city.tsx";
import { specialityName } from "../../format.ts";
import { SLOTS } from "../../../contract/constants.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { OnlineDetails, TypeChoice } from "./book-dialog.tsx";

type Data = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];

export { BookDialog } from "./book-dialog.tsx";

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./appointment-schemas.ts")]);

export function RequestDialog({ d, actionData }: { d: Data; actionData: ActionData }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const hydrated = useHydrated();
  const closeTo = withParams(location.pathname + location.search, { request: null });
  const validation = useClientValidation(loadValidation, ([zod, schemas], formData) =>
    zod.parseWithZod(formData, { schema: schemas.requestSchema(d.today) }),
  );
  const answer = actionData?.form === "request" ? actionData : null;
  const [form, fields] = useForm({
    id: "request",
    lastResult: answer?.result,
    ...validation,
  });
  const [chosen, setChosen] = useState({
    speciality: String(fields.specialityId.initialValue ?? ""),
    type: String(fields.type.initialValue ?? ""),
  });
  return (
    <Dialog title={t("patient:request.title")} closeTo={closeTo} size="lg">
      <Form
        method="post"
        preventScrollReset
        className="group space-y-4"
        {...getFormProps(form)}
        onChange={(e) => {
          const f = e.currentTarget;
          setChosen({
            speciality: (f.elements.namedItem("specialityId") as HTMLSelectElement).value,
            type: (f.querySelector("input[name=type]:checked") as HTMLInputElement | null)?.value ?? "",
          });
        }}
      >
        <FormAlert message={form.errors?.[0]} />
        <input type="hidden" name="form" value="request" />
        <input type="hidden" name="idempotencyKey" value={d.idempotencyKey} />
        <SelectField
          label={t("patient:request.speciality")}
          {...getSelectProps(fields.specialityId)}
          errors={fields.specialityId.errors}
        >
          <option value="">{t("patient:request.chooseSpeciality")}</option>
          {d.specialities.map((s) => (
            <option key={s.id} value={s.id}>
              {specialityName(s, i18n.language)}
            </option>
          ))}
        </SelectField>
        <TypeChoice
          idPrefix="request"
          defaultValue={fields.type.initialValue as string | undefined}
          errors={fields.type.errors}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={t("patient:request.date")}
            {...getInputProps(fields.date, { type: "date" })}
            min={d.today}
            required
            errors={fields.date.errors}
          />
          <SelectField
            label={t("patient:request.time")}
            {...getSelectProps(fields.time)}
            required
            errors={fields.time.errors}
          >
            <option value="">{t("patient:request.chooseTime")}</option>
            {SLOTS.map((slot) => (
              <option key={slot} value={slot}>
                {slot}
              </option>
            ))}
          </SelectField>
          <ClinicTimeZone className="text-xs text-slate-600 sm:col-span-2" />
        </div>
        <OnlineDetails fields={fields} className="hidden group-has-[#request-type-online:checked]:block" />
        <fieldset className="hidden gap-3 group-has-[#request-type-in-person:checked]:grid sm:grid-cols-2">
          <legend className="label">{t("patient:request.inPersonDetails")}</legend>
          <CountryCityFields
            idPrefix="request"
            ns="patient:location"
            countries={d.countries}
            cities={[]}
            reloaded={answer}
            initialCountry={String(fields.countryId.initialValue ?? "")}
            initialCity={String(fields.cityId.initialValue ?? "")}
          />
          <div className="sm:col-span-2">
            <TextAreaField
              label={t("patient:request.residenceAddress")}
              {...getTextareaProps(fields.residenceAddress)}
              rows={2}
              errors={fields.residenceAddress.errors}
            />
          </div>
        </fieldset>
        <TextAreaField label={t("patient:request.reason")} {...getTextareaProps(fields.reason)} rows={3} />
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={closeTo} preventScrollReset className="btn-secondary">
            {t("patient:form.cancel")}
          </Link>
          {/* With JavaScript the button waits for a speciality and a type; the server checks regardless. */}
          <SubmitButton name="intent" value="submit" disabled={hydrated && (!chosen.speciality || !chosen.type)}>
            {t("patient:request.submit")}
          </SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
