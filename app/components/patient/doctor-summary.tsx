// A doctor as patients see it: avatar (initials fallback), specialities, city, hospital,
// experience and the consultation fee (docs/product.md, Data and Fee).
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n.ts";
import { Avatar } from "../avatar.tsx";
import { formatMoney, specialityName } from "../../format.ts";
import { experienceYears, type ShownDoctor } from "../../patient-rules.ts";

export function DoctorSummary({
  doctor,
  heading = "h3",
  children,
}: {
  doctor: ShownDoctor;
  heading?: "h2" | "h3";
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const Heading = heading;
  const years = experienceYears(doctor.startYear);
  const specialities =
    doctor.specialities.map((s) => specialityName(s, i18n.language)).join(", ") || t("patient:doctors.generalPractice");
  return (
    <div className="flex items-start gap-3">
      <Avatar name={doctor.username} url={doctor.avatarUrl} />
      <div className="min-w-0 flex-1">
        <Heading className="font-semibold text-slate-900">
          {t("patient:doctors.drName", { name: doctor.username })}
        </Heading>
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
