// The doctor's side of /appointment-proposal (docs/product.md, The API and Open requests and proposals): a verified
// doctor proposes themselves, once, for an open request of their specialities; the request
// becomes 'proposed' in the same transaction. Patients accept or reject in patient.ts.
import { Router } from "express";
import { proposalBody } from "../../contract/appointment.ts";
import { and, eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { isUniqueViolation } from "../db-errors.ts";
import { appointments, proposals } from "../db/schema.ts";
import { authenticate, conflict, currentUser, forbidden, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { tellOfChange } from "../notifications.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { doctorsBusyAt } from "../appointment/booking.ts";
import { requireBookable } from "../appointment/availability.ts";
import { appointmentNotFound } from "../appointment/patient-data.ts";
import { isUuid } from "../../contract/fields.ts";
import { auditPatients } from "../audit.ts";
import {
  isOpenRequestFor,
  loadDoctorAccess,
  OPEN_STATUSES,
  requireVerified,
  type DoctorAccess,
} from "../appointment/access.ts";

const alreadyProposed = () => conflict("You have already proposed for this request", "already_proposed");
const slotHeld = () => conflict("You already have an appointment at this time", "slot_held");

async function proposeForRequest(
  db: Db,
  mailer: OutboxMailer,
  doctor: DoctorAccess,
  appointmentId: string,
  now = new Date(),
) {
  requireVerified(doctor);
  if (!isUuid(appointmentId)) throw appointmentNotFound();
  const { proposal, patientId } = await db.transaction(async (tx) => {
    const [request] = await tx
      .select({
        patientId: appointments.patientId,
        doctorId: appointments.doctorId,
        category: appointments.category,
        specialityId: appointments.specialityId,
        status: appointments.status,
        startsAt: appointments.startsAt,
      })
      .from(appointments)
      .where(eq(appointments.id, appointmentId))
      .for("update");
    if (!request || !isOpenRequestFor(doctor, request)) throw appointmentNotFound();
    if (!(OPEN_STATUSES as readonly string[]).includes(request.status)) {
      throw conflict("This request no longer takes proposals", "invalid_transition");
    }
    if (request.startsAt.getTime() <= now.getTime())
      throw conflict("This request's time has already passed", "request_expired");
    const [existing] = await tx
      .select({ id: proposals.id })
      .from(proposals)
      .where(and(eq(proposals.appointmentId, appointmentId), eq(proposals.doctorId, doctor.id)));
    if (existing) throw alreadyProposed();
    // The patient could never accept it: one active appointment per doctor and slot (docs/product.md).
    if ((await doctorsBusyAt(tx, [doctor.id], request.startsAt)).size) throw slotHeld();
    // Nor if the doctor's calendar does not offer that slot now (docs/product.md, Availability).
    await requireBookable(tx, doctor.id, request.startsAt, { now });
    let created: typeof proposals.$inferSelect | undefined;
    try {
      [created] = await tx
        .insert(proposals)
        .values({ appointmentId, doctorId: doctor.id, status: "pending" })
        .returning();
    } catch (err) {
      if (isUniqueViolation(err, "proposals_once_per_doctor")) throw alreadyProposed();
      throw err;
    }
    await tx
      .update(appointments)
      .set({ status: "proposed", updatedAt: new Date() })
      .where(eq(appointments.id, appointmentId));
    await tellOfChange(tx, mailer, appointmentId, "proposal", { actorId: doctor.id, to: request.patientId });
    return { proposal: created, patientId: request.patientId };
  });
  mailer.wake();
  await auditPatients(db, doctor.id, [patientId], "create", "proposal", proposal.id);
  return {
    id: proposal.id,
    status: proposal.status,
    createdAt: proposal.createdAt.toISOString(),
    appointmentId: proposal.appointmentId,
    doctorId: proposal.doctorId,
  };
}

export function proposalDoctorRouter({ db, mailer }: ApiDeps) {
  const router = Router();

  router.post("/", authenticate(db, "doctor"), idempotent(db), async (req, res) => {
    const { doctorId, appointmentId } = parse(proposalBody, req.body);
    const me = currentUser(req).id;
    if (doctorId !== undefined && doctorId !== me) throw forbidden("You can only propose yourself", "forbidden");
    const proposal = await proposeForRequest(db, mailer, await loadDoctorAccess(db, me), appointmentId);
    res.status(201).json(proposal);
  });

  return router;
}
