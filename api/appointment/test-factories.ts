// Test factories for appointment rows inserted directly (for states no patient call creates, and
// for proposals, which doctors create through another router).
import { eq } from "drizzle-orm";
import type { Db } from "../db/index.ts";
import { appointments, proposals } from "../db/schema.ts";
import { futureDate } from "../test/harness.ts";
import { zonedInstant } from "../time.ts";
import { SLOTS, type ProposalStatus } from "../../contract/constants.ts";

type AppointmentRow = typeof appointments.$inferInsert;

let made = 0;
/**
 * A future slot each call: the six slots of one open day, then the next day's, over 15 open days
 * from the 45th (after the days the tests book themselves, within the default horizon), so that the
 * availability rule accepts proposing on it, accepting it or rescheduling it.
 */
function distinctInstant(): Date {
  const n = made++ % (15 * SLOTS.length);
  return zonedInstant(futureDate(45 + Math.floor(n / SLOTS.length)), SLOTS[n % SLOTS.length]!);
}

export async function insertAppointment(db: Db, values: Partial<AppointmentRow> & { patientId: string }) {
  const [row] = await db
    .insert(appointments)
    .values({ type: "online", category: "direct", status: "pending", startsAt: distinctInstant(), ...values })
    .returning();
  return row;
}

/** An open request (category random, no doctor). */
export const insertOpenRequest = (
  db: Db,
  values: Partial<AppointmentRow> & { patientId: string; specialityId: number },
) => insertAppointment(db, { category: "random", doctorId: null, ...values });

/** A doctor's proposal on an open request; the request becomes proposed, as when a doctor proposes. */
export async function insertProposal(
  db: Db,
  appointmentId: string,
  doctorId: string,
  status: ProposalStatus = "pending",
) {
  const [row] = await db.insert(proposals).values({ appointmentId, doctorId, status }).returning();
  if (status === "pending")
    await db.update(appointments).set({ status: "proposed" }).where(eq(appointments.id, appointmentId));
  return row;
}
