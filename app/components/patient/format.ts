// Small formatting rules shared by the patient screens: fees in XAF, speciality names in the
// page's language, years of experience and an appointment's place.
import { numberFormat } from "../../intl.ts";
import type { PatientAppointment, Speciality } from "./types.ts";

export { formatDate } from "../doctor/appointment-card.tsx";

export const formatFee = (amount: number, language: string) => `${numberFormat(language).format(amount)} XAF`;

export const specialityName = (s: Speciality, language: string) => (language === "fr" && s.nameFr ? s.nameFr : s.name);

/** SPEC.md section 3: experience is the current year minus startYear. */
export const experienceYears = (startYear: number | null) => (startYear ? Math.max(0, new Date().getFullYear() - startYear) : null);

/** Where the appointment takes place: 'Online video' for online visits, else the real place. */
export function placeOf(a: Pick<PatientAppointment, "type" | "place" | "city" | "country">, t: (key: string) => string) {
  if (a.type === "online") return t("patient:place.online");
  return [a.place, a.city, a.country].filter(Boolean).join(", ") || t("patient:place.toConfirm");
}

/** An open request: category random and no doctor yet (DESIGN.md section 5). */
export const isOpenRequest = (a: Pick<PatientAppointment, "category" | "doctorId">) => a.category === "random" && !a.doctorId;
