// /doctor/queue (docs/product.md, The front desk): the doctor's waiting list of today, the patients
// the desk recorded as arrived and not yet called in, in the order they are due (a booked patient
// at their slot, a walk-in at their arrival); calling one in records startedAt, and the visit is
// then completed as usual (doctor-changes.ts).
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { Router } from "express";
import type { DoctorQueue } from "../../contract/reception.ts";
import { isUuid } from "../../contract/fields.ts";
import { auditPatients } from "../audit.ts";
import { appointments } from "../db/schema.ts";
import type { ApiDeps } from "../deps.ts";
import { authenticate, conflict, currentUser } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { clinicToday } from "../time.ts";
import { loadDoctorAccess, requireVerified } from "../appointment/access.ts";
import { appointmentNotFound } from "../appointment/patient-data.ts";
import { dayAppointment, dayAppointments, dueAt, onDay } from "../reception/day.ts";

export function doctorQueueRouter({ db }: ApiDeps) {
  const router = Router();
  const doctorOnly = authenticate(db, "doctor");

  router.get("/queue", doctorOnly, async (req, res) => {
    const doctor = currentUser(req);
    const now = new Date();
    const waiting = await dayAppointments(
      db,
      and(
        eq(appointments.doctorId, doctor.id),
        onDay(clinicToday(now)),
        eq(appointments.status, "confirmed"),
        isNotNull(appointments.arrivedAt),
        isNull(appointments.startedAt),
      ),
      [dueAt, sql`${appointments.arrivedAt}`],
    );
    const queue = waiting.map((a) => ({
      ...a,
      dueAt: a.walkIn ? (a.arrivedAt ?? a.time) : a.time,
      waitedMinutes: Math.max(0, Math.floor((now.getTime() - Date.parse(a.arrivedAt ?? a.time)) / 60_000)),
    }));
    await auditPatients(
      db,
      doctor.id,
      queue.map((a) => a.Patient.id),
      "read",
      "appointment",
    );
    res.json({ queue } satisfies DoctorQueue);
  });

  // Calling the patient in: once arrived; again is the same answer (a double click, a retry).
  router.post("/queue/:id/start", doctorOnly, idempotent(db), async (req, res) => {
    const id = String(req.params.id);
    const doctor = await loadDoctorAccess(db, currentUser(req).id);
    requireVerified(doctor);
    if (!isUuid(id)) throw appointmentNotFound();
    const patientId = await db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          doctorId: appointments.doctorId,
          patientId: appointments.patientId,
          status: appointments.status,
          arrivedAt: appointments.arrivedAt,
          startedAt: appointments.startedAt,
        })
        .from(appointments)
        .where(eq(appointments.id, id))
        .for("update");
      if (!row || row.doctorId !== doctor.id) throw appointmentNotFound();
      if (row.startedAt) return row.patientId;
      if (row.status !== "confirmed") {
        throw conflict(`An appointment that is ${row.status} cannot be started`, "invalid_transition");
      }
      if (!row.arrivedAt) throw conflict("The patient has not arrived yet", "not_arrived");
      const now = new Date();
      await tx.update(appointments).set({ startedAt: now, updatedAt: now }).where(eq(appointments.id, id));
      return row.patientId;
    });
    await auditPatients(db, doctor.id, [patientId], "update", "appointment", id);
    res.json(await dayAppointment(db, id));
  });

  return router;
}
