// The doctors the receptionist serves, for the pages that need them without the day itself (the
// patients page's 'Book with' links): the day sheet's answer names them.
import type { Upstream } from "../../upstream.server.ts";
import type { DaySheet } from "../../../contract/reception.ts";

export async function servedDoctorsOf(api: Upstream) {
  const { doctors } = await api.get<DaySheet>("/reception/day");
  return doctors.map((doctor) => ({ id: doctor.id, username: doctor.username }));
}
