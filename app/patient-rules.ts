// Small rules shared by the patient's screens and their server modules: years of experience, an
// appointment's place, open requests. Not UI, so not in components/ (which server modules never
// import). Numbers, dates and names in the reader's language come from app/format.ts.
import { formatPlace, specialityName } from "./format.ts";
import type { PatientAppointment } from "../contract/appointment.ts";
import type { DoctorSummary } from "../contract/doctor.ts";

/** docs/product.md, Data: experience is the current year minus startYear. */
export const experienceYears = (startYear: number | null) =>
  startYear ? Math.max(0, new Date().getFullYear() - startYear) : null;

/** Where the appointment takes place: 'Online video' for online visits, else the real place. */
export function placeOf(
  a: Pick<PatientAppointment, "type" | "place" | "city" | "country" | "Country">,
  t: (key: string) => string,
  language: string,
) {
  if (a.type === "online") return t("patient:place.online");
  return formatPlace(a, language) || t("patient:place.toConfirm");
}

/** An open request: category random and no doctor yet (docs/product.md). */
export const isOpenRequest = (a: Pick<PatientAppointment, "category" | "doctorId">) =>
  a.category === "random" && !a.doctorId;

/**
 * What a doctor's summary (components/patient/doctor-summary.tsx) shows of a doctor, and no more:
 * a list page sends its doctors in this shape (`shownDoctor`), since the page's data is part of its
 * first-load JavaScript (docs/decisions/0003-first-load-javascript-budget.md).
 */
export type ShownDoctor = Pick<DoctorSummary, "username" | "avatarUrl" | "duty_hospital" | "startYear" | "fee"> & {
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
