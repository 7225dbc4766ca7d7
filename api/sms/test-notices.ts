// What the SMS notice tests share (api/sms/sms.test.ts, and smpps.test.ts against an API started
// as a process of its own): the booking whose confirmation is texted, and what that text must be.
import { expect } from "vitest";
import { insertAppointment } from "../appointment/test-factories.ts";
import type { Db } from "../db/index.ts";
import { accountFactories } from "../test/harness.ts";
import type { ReceivedSms } from "../test/smpp.ts";
import { septets, toGsm7 } from "./texts.ts";

/**
 * A pending appointment of `patientId` with Dr Ekane, a cardiologist, whose token confirms it:
 * the booking whose confirmation the notice tests text to a patient named Awa.
 */
export async function pendingWithCardiologist(db: Db, patientId: string) {
  const doctor = await accountFactories(db).createDoctor({ username: "Dr Ekane", specialities: ["Cardiology"] });
  const appointment = await insertAppointment(db, { patientId, doctorId: doctor.user.id, status: "pending" });
  return { doctor, appointment };
}

/**
 * The confirmation of `appointment` (pendingWithCardiologist's) as a French-speaking patient gets
 * it: one GSM-7 SMS of at most 160 characters with the clinic date, time and link, and nothing
 * about the doctor, the speciality or the patient.
 */
export function expectFrenchConfirmation(notice: ReceivedSms, appointment: { id: string; startsAt: Date }) {
  expect(toGsm7(notice.text)).toBe(notice.text);
  expect(septets(notice.text)).toBeLessThanOrEqual(160);
  const time = new Intl.DateTimeFormat("fr-FR", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: "Africa/Douala",
  }).format(appointment.startsAt);
  const day = new Intl.DateTimeFormat("fr-FR", { day: "numeric", timeZone: "Africa/Douala" }).format(
    appointment.startsAt,
  );
  expect(notice.text).toMatch(/^HealthBook : votre rendez-vous du /);
  expect(notice.text).toContain("est confirmé");
  expect(notice.text).toContain(`${time} UTC+1`);
  expect(notice.text).toContain(` ${day} `);
  expect(notice.text).toMatch(new RegExp(`https?://\\S+/a/${appointment.id}$`));
  // No speciality, doctor or other health data.
  expect(notice.text).not.toMatch(/Cardio|Ekane|Awa/);
}

/** An expiry that no test outlives, for notices queued directly (queueNoticeSms). */
export const inADay = () => new Date(Date.now() + 86_400_000);
