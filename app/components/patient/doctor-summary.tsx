// A doctor as patients see it: avatar (initials fallback), specialities, city, hospital,
// experience and the consultation fee (docs/product.md, Data and Fee).
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n.ts";
import { Avatar } from "../avatar.tsx";
import { formatMoney, specialityName } from "../../format.ts";
import { experienceYears } from "../../patient-rules.ts";
import type { DoctorSummary as Summary } from "../../../contract/doctor.ts";

/**
 * What the summary shows of a doctor, and no more: a list page sends its doctors in this shape
 * (`shownDoctor`), since the page's data is part of its first-load JavaScript
 * (docs/decisions/0003-first-load-javascript-budget.md).
 */
export type ShownDoctor = Pick<Summary, "username" | "avatarUrl" | "duty_hospital" | "startYear" | "fee"> & {
  specialities: { name: string; nameFr?: string | null }[];
  City: { name: string } | null;
};

/** The doctor as the summary shows it in `language`: its specialities named in that language only. */
export const shownDoctor = (d: ShownDoctor, language: string): ShownDoctor => ({
  username: d.username,
  avatarUrl: d.avatarUrl,
  duty_hospital: d.duty_hospital,
  startYear: d.startYear,
  fee: d.fee,
  specialities: d.specialities.map((s) => ({ name: specialityName(s, language) })),
  City: d.City ? { name: d.City.name } : null,
});

export function DoctorSummary({ doctor, heading = "h3", children }: { doctor: ShownDoctor; heading?: "h2" | "h3"; children?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const Heading = heading;
  const years = experienceYears(doctor.startYear);
  const specialities = doctor.specialities.map((s) => specialityName(s, i18n.language)).join(", ") || t("patient:doctors.generalPractice");
  return (
    <div className="flex items-start gap-3">
      <Avatar name={doctor.username} url={doctor.avatarUrl} />
      <div className="min-w-0 flex-1">
        <Heading className="font-semibold text-slate-900">{t("patient:doctors.drName", { name: doctor.username })}</Heading>
        <p className="text-sm text-slate-700">{specialities}</p>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-sm text-slate-700">
          {doctor.City ? (
            <>
              <dt className="font-medium">{t("patient:doctors.city")}</dt>
              <dd>{doctor.City.name}</dd>
            </>
          ) : null}
          {doctor.duty_hospital ? (
            <>
              <dt className="font-medium">{t("patient:doctors.hospital")}</dt>
              <dd>{doctor.duty_hospital}</dd>
            </>
          ) : null}
          {years !== null ? (
            <>
              <dt className="font-medium">{t("patient:doctors.experience")}</dt>
              <dd>{t("patient:doctors.years", { count: years })}</dd>
            </>
          ) : null}
          <dt className="font-medium">{t("patient:doctors.fee")}</dt>
          <dd>{formatMoney(doctor.fee, i18n.language)}</dd>
        </dl>
        {children}
      </div>
    </div>
  );
}
