// The doctors a receptionist serves, chosen among the verified ones: the staff page's create form
// and its change dialog. A clinic may have thousands of doctors, so the page shows one page of them
// (the first, or those whose name holds the search) and always the ones already chosen. The search
// is a GET form of its own (DoctorSearchForm, outside the form that saves), whose box and button sit
// here through their `form` attribute, so it works without JavaScript.
import { useState } from "react";
import { Form } from "react-router";
import { useTranslation } from "../../i18n.ts";

export type Doctor = { id: string; username: string };

/** The doctors the search found, and what the page says about the others. */
export type DoctorsFound = { doctors: Doctor[]; search: string; more: boolean };

export function DoctorChoice({
  found,
  chosen,
  idPrefix,
  searchForm,
  errors,
}: {
  found: DoctorsFound;
  /** Checked, and listed whatever the search. */
  chosen: Doctor[];
  idPrefix: string;
  /** The id of the DoctorSearchForm the search box belongs to. */
  searchForm: string;
  errors?: string[];
}) {
  const { t } = useTranslation();
  // With JavaScript, a doctor checked before another search stays listed (and checked) after it.
  const [picked, setPicked] = useState(chosen);
  // Those the search did not find first, then the search's in its order (checking one does not move it).
  const listed = [...picked.filter((p) => !found.doctors.some((d) => d.id === p.id)), ...found.doctors];
  const checked = new Set(picked.map((d) => d.id));
  const hint = found.search
    ? found.doctors.length === 0
      ? t("admin:staff.noMatch", { search: found.search })
      : found.more
        ? t("admin:staff.moreMatches", { shown: found.doctors.length })
        : null
    : found.more
      ? t("admin:staff.firstDoctors", { shown: found.doctors.length })
      : null;
  return (
    <fieldset aria-describedby={errors?.length ? `${idPrefix}-error` : undefined} className="space-y-3">
      <legend className="label">{t("admin:staff.doctors")}</legend>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-40 flex-1">
          <label htmlFor={`${idPrefix}-search`} className="text-sm text-slate-700">
            {t("admin:staff.search")}
          </label>
          <input
            id={`${idPrefix}-search`}
            type="search"
            name="doctor"
            form={searchForm}
            className="input"
            defaultValue={found.search}
            key={found.search}
            maxLength={100}
            autoComplete="off"
          />
        </div>
        <button type="submit" form={searchForm} className="btn-secondary">
          {t("admin:staff.searchButton")}
        </button>
      </div>
      {listed.length === 0 && !found.search ? (
        <p className="text-sm text-slate-700">{t("admin:staff.noDoctors")}</p>
      ) : (
        <div className="grid gap-1 sm:grid-cols-2">
          {listed.map((doctor) => (
            <label key={doctor.id} className="flex min-w-0 items-center gap-2 text-sm break-words">
              <input
                type="checkbox"
                name="doctorIds"
                value={doctor.id}
                defaultChecked={checked.has(doctor.id)}
                onChange={(e) => {
                  if (e.currentTarget.checked && !picked.some((p) => p.id === doctor.id))
                    setPicked([...picked, doctor]);
                }}
              />
              {t("admin:staff.doctorName", { name: doctor.username })}
            </label>
          ))}
        </div>
      )}
      {hint ? <p className="text-sm break-words text-slate-700">{hint}</p> : null}
      {errors?.length ? (
        <p id={`${idPrefix}-error`} className="field-error">
          {t(errors[0]!)}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The GET form of a DoctorChoice's search: the page's other parameters (an open dialog) are kept. */
export function DoctorSearchForm({ id, keep }: { id: string; keep: Record<string, string> }) {
  return (
    <Form method="get" id={id} preventScrollReset hidden>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </Form>
  );
}
