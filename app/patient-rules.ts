// Small rules shared by the patient's screens and their server modules: years of experience, an
// appointment's place, open requests. Not UI, so not in components/ (which server modules never
// import). Numbers, dates and names in the reader's language come from app/format.ts.
import { formatPlace } from "./format.ts";
import type { PatientAppointment } from "../contract/appointment.ts";

/** docs/product.md, Data: experience is the current year minus startYear. */
export const experienceYears = (startYear: number | null) => (startYear ? Math.max(0, new Date().getFullYear() - startYear) : null);

/** Where the appointment takes place: 'Online video' for online visits, else the real place. */
export function placeOf(a: Pick<PatientAppointment, "type" | "place" | "city" | "country" | "Country">, t: (key: string) => string, language: string) {
  if (a.type === "online") return t("patient:place.online");
  return formatPlace(a, language) || t("patient:place.toConfirm");
}

/** An open request: category random and no doctor yet (docs/product.md). */
export const isOpenRequest = (a: Pick<PatientAppointment, "category" | "doctorId">) => a.category === "random" && !a.doctorId;
