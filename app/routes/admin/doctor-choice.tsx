// The doctors a receptionist serves, chosen among the verified ones: the staff page's create form
// and each receptionist's own form.
import { useTranslation } from "../../i18n.ts";

export function DoctorChoice({
  doctors,
  chosen,
  idPrefix,
  errors,
}: {
  doctors: { id: string; username: string }[];
  chosen: string[];
  idPrefix: string;
  errors?: string[];
}) {
  const { t } = useTranslation();
  return (
    <fieldset aria-describedby={errors?.length ? `${idPrefix}-error` : undefined}>
      <legend className="label">{t("admin:staff.doctors")}</legend>
      {doctors.length === 0 ? (
        <p className="text-sm text-slate-700">{t("admin:staff.noDoctors")}</p>
      ) : (
        <div className="grid gap-1 sm:grid-cols-2">
          {doctors.map((doctor) => (
            <label key={doctor.id} className="flex min-w-0 items-center gap-2 text-sm break-words">
              <input type="checkbox" name="doctorIds" value={doctor.id} defaultChecked={chosen.includes(doctor.id)} />
              {t("admin:staff.doctorName", { name: doctor.username })}
            </label>
          ))}
        </div>
      )}
      {errors?.length ? (
        <p id={`${idPrefix}-error`} className="field-error">
          {t(errors[0]!)}
        </p>
      ) : null}
    </fieldset>
  );
}
