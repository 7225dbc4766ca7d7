// Test factories for appointment rows inserted directly (for states no patient call creates, and
// for proposals, which doctors create through another router).
import { eq } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { appointments, proposals } from "../db/schema.ts";
import { futureDate } from "../test/harness.ts";
import { zonedInstant } from "../time.ts";
import type { ProposalStatus } from "../../contract/constants.ts";

type AppointmentRow = typeof appointments.$inferInsert;

let hour = 0;
/** A distinct future slot instant each call, `days` ahead (odd hours avoid the six slots). */
function distinctInstant(days = 20): Date {
  hour = (hour + 1) % 9;
  return zonedInstant(futureDate(days), `${String(8 + hour).padStart(2, "0")}:17`);
}

export async function insertAppointment(db: Db, values: Partial<AppointmentRow> & { patientId: string }) {
  const [row] = await db
    .insert(appointments)
    .values({ type: "online", category: "direct", status: "pending", startsAt: distinctInstant(), ...values })
    .returning();
  return row;
}

/** An open request (category random, no doctor). */
export const insertOpenRequest = (db: Db, values: Partial<AppointmentRow> & { patientId: string; specialityId: number }) =>
  insertAppointment(db, { category: "random", doctorId: null, ...values });

/** A doctor's proposal on an open request; the request becomes proposed, as when a doctor proposes. */
export async function insertProposal(db: Db, appointmentId: string, doctorId: string, status: ProposalStatus = "pending") {
  const [row] = await db.insert(proposals).values({ appointmentId, doctorId, status }).returning();
  if (status === "pending") await db.update(appointments).set({ status: "proposed" }).where(eq(appointments.id, appointmentId));
  return row;
}
