// The patient's side of /appointment-proposal (docs/product.md, The API and Open requests and proposals): list the
// proposals on an own open request, accept one (the request gets that doctor, the fee and status
// confirmed; every other proposal is rejected) or reject one. Doctors propose in doctor.ts.
import { Router } from "express";
import { and, asc, count, eq, ne } from "drizzle-orm";
import { proposalListQuery } from "../../contract/appointment.ts";
import { isUuid } from "../../contract/fields.ts";
import type { ApiDeps } from "../deps.ts";
import type { Db } from "../db/index.ts";
import { appointments, doctors, proposals, users } from "../db/schema.ts";
import { authenticate, conflict, currentUser, notFound, parse } from "../http.ts";
import { idempotent } from "../idempotency.ts";
import { tellOfChange } from "../notifications.ts";
import type { OutboxMailer } from "../mail/outbox.ts";
import { claimingSlot } from "../appointment/booking.ts";
import { type BookingLimits, requireWithinBookingLimits } from "../appointment/booking-limits.ts";
import { BOOKING_LIMIT_DEFAULTS } from "../../config.ts";
import { bookableDoctors, requireBookable } from "../appointment/availability.ts";
import { findAppointment, serializeAppointment } from "../appointment/serialize.ts";
import { feeOfDoctor, loadDoctorCards } from "../doctor/card.ts";
import { markSeenOn, withdrawOpenRequest } from "../notification/data.ts";

const proposalNotFound = () => notFound("Proposal not found");
const doctorSlotTaken = () => conflict("This doctor is no longer free at this time", "slot_taken");

/** Proposals on the patient's own appointment, oldest first, each with the proposing doctor's card. */
async function listProposals(db: Db, patientId: string, appointmentId: string, page: number, limit: number) {
  const [appointment] = await db
    .select({ patientId: appointments.patientId, price: appointments.price, startsAt: appointments.startsAt })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  if (!appointment || appointment.patientId !== patientId) throw notFound("Appointment not found");
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: proposals.id,
        status: proposals.status,
        createdAt: proposals.createdAt,
        doctorId: proposals.doctorId,
      })
      .from(proposals)
      .where(eq(proposals.appointmentId, appointmentId))
      .orderBy(asc(proposals.createdAt), asc(proposals.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(proposals).where(eq(proposals.appointmentId, appointmentId)),
  ]);
  const [cards, bookable] = await Promise.all([
    loadDoctorCards(
      db,
      rows.map((r) => r.doctorId),
    ),
    bookableDoctors(
      db,
      rows.map((r) => r.doctorId),
      appointment.startsAt,
    ),
  ]);
  const items = rows.map((p) => {
    const card = cards.get(p.doctorId)!;
    return {
      id: p.id,
      status: p.status,
      // False once the availability rule refuses the doctor that slot (taken, away, closed, off the
      // plan, too soon): accepting would be refused.
      available: bookable.has(p.doctorId),
      createdAt: p.createdAt.toISOString(),
      Doctor: {
        id: card.id,
        username: card.username,
        avatarUrl: card.avatarUrl,
        specialities: card.specialities,
        City: card.City,
        Country: card.Country,
        duty_hospital: card.duty_hospital,
        startYear: card.startYear,
        fee: card.fee,
      },
      // The price accepting would fix; once accepted, the price that was fixed.
      Appointment: {
        id: appointmentId,
        price: p.status === "accepted" && appointment.price !== null ? appointment.price : card.fee,
      },
    };
  });
  return { items, total };
}

/** Locks the proposal's appointment and checks the patient owns it; 404 otherwise. */
async function lockOwnProposal(tx: Db, patientId: string, proposalId: string) {
  if (!isUuid(proposalId)) throw proposalNotFound();
  const [target] = await tx
    .select({ appointmentId: proposals.appointmentId })
    .from(proposals)
    .where(eq(proposals.id, proposalId));
  if (!target) throw proposalNotFound();
  const [appointment] = await tx
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      doctorId: appointments.doctorId,
      status: appointments.status,
      startsAt: appointments.startsAt,
    })
    .from(appointments)
    .where(eq(appointments.id, target.appointmentId))
    .for("update");
  if (!appointment || appointment.patientId !== patientId) throw proposalNotFound();
  const [proposal] = await tx
    .select({ id: proposals.id, doctorId: proposals.doctorId, status: proposals.status })
    .from(proposals)
    .where(eq(proposals.id, proposalId))
    .for("update");
  return { appointment, proposal };
}

async function acceptProposal(
  db: Db,
  mailer: OutboxMailer,
  limits: BookingLimits,
  patientId: string,
  proposalId: string,
) {
  const appointmentId = await db.transaction(async (tx) => {
    const { appointment, proposal } = await lockOwnProposal(tx, patientId, proposalId);
    if (proposal.status !== "pending") throw conflict("This proposal is no longer pending", "invalid_transition");
    if (appointment.doctorId !== null || !["pending", "proposed"].includes(appointment.status)) {
      throw conflict("This request is no longer open", "invalid_transition");
    }
    const [doctor] = await tx
      .select({ deletedAt: users.deletedAt, verification: doctors.verification })
      .from(users)
      .innerJoin(doctors, eq(doctors.userId, users.id))
      .where(eq(users.id, proposal.doctorId));
    if (!doctor || doctor.deletedAt || doctor.verification !== "verified") {
      throw conflict("This doctor is no longer available", "doctor_unavailable");
    }
    const price = await feeOfDoctor(tx, proposal.doctorId);
    const now = new Date();
    // Accepting books for oneself: the booking limits hold here as for a direct booking.
    await requireWithinBookingLimits(tx, limits, {
      patientId,
      doctorId: proposal.doctorId,
      startsAt: appointment.startsAt,
      now,
    });
    // The doctor's calendar must still offer the slot (docs/product.md, Availability).
    await requireBookable(tx, proposal.doctorId, appointment.startsAt, { now, taken: doctorSlotTaken });
    // The slot rule applies: if the doctor got booked meanwhile, nothing changes (409).
    await claimingSlot(
      () =>
        tx
          .update(appointments)
          .set({ doctorId: proposal.doctorId, price, status: "confirmed", updatedAt: now })
          .where(eq(appointments.id, appointment.id)),
      doctorSlotTaken,
    );
    await tx.update(proposals).set({ status: "accepted", updatedAt: now }).where(eq(proposals.id, proposal.id));
    await tx
      .update(proposals)
      .set({ status: "rejected", updatedAt: now })
      .where(
        and(
          eq(proposals.appointmentId, appointment.id),
          ne(proposals.id, proposal.id),
          eq(proposals.status, "pending"),
        ),
      );
    await withdrawOpenRequest(tx, appointment.id);
    await tellOfChange(tx, mailer, appointment.id, "proposalAccepted", { actorId: patientId, to: proposal.doctorId });
    return appointment.id;
  });
  mailer.wake();
  return serializeAppointment((await findAppointment(db, appointmentId))!);
}

async function rejectProposal(db: Db, patientId: string, proposalId: string) {
  await db.transaction(async (tx) => {
    const { appointment, proposal } = await lockOwnProposal(tx, patientId, proposalId);
    if (proposal.status !== "pending") throw conflict("This proposal is no longer pending", "invalid_transition");
    const now = new Date();
    await tx.update(proposals).set({ status: "rejected", updatedAt: now }).where(eq(proposals.id, proposal.id));
    const [{ left }] = await tx
      .select({ left: count() })
      .from(proposals)
      .where(and(eq(proposals.appointmentId, appointment.id), eq(proposals.status, "pending")));
    if (left === 0 && appointment.status === "proposed") {
      await tx
        .update(appointments)
        .set({ status: "pending", updatedAt: now })
        .where(eq(appointments.id, appointment.id));
    }
    await markSeenOn(tx, patientId, appointment.id);
  });
}

export function proposalPatientRouter({ db, mailer, bookingLimits = BOOKING_LIMIT_DEFAULTS }: ApiDeps) {
  const router = Router();

  router.get("/", authenticate(db, "patient"), async (req, res) => {
    const { appointmentId, page, limit } = parse(proposalListQuery, req.query);
    if (!isUuid(appointmentId)) throw notFound("Appointment not found");
    const { items, total } = await listProposals(db, currentUser(req).id, appointmentId, page, limit);
    // The contract answers an array; the total travels in a header.
    res.set("X-Total-Count", String(total)).json(items);
  });

  router.patch("/:id/accept", authenticate(db, "patient"), idempotent(db), async (req, res) => {
    const appointment = await acceptProposal(db, mailer, bookingLimits, currentUser(req).id, String(req.params.id));
    res.json({ message: "Proposal accepted", appointment });
  });

  router.patch("/:id/reject", authenticate(db, "patient"), idempotent(db), async (req, res) => {
    await rejectProposal(db, currentUser(req).id, String(req.params.id));
    res.json({ message: "Proposal rejected" });
  });

  return router;
}
