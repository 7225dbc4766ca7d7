// Telling the other party of a change to an appointment (docs/mail.md, Notifications and reminders;
// docs/product.md, The bell): a notice on their bell, and a mail in their own language with the
// appointment's calendar entry attached. Both are written inside the transaction of the change, so
// a change and what it tells exist together or not at all.
import { and, eq, isNull, sql } from "drizzle-orm";
import { config } from "../config.ts";
import type { Db } from "./db/index.ts";
import { appointments, notifications, users } from "./db/schema.ts";
import type { NotificationKind } from "../contract/constants.ts";
import { formatTimeZone } from "../contract/time-zone.ts";
import { markSeenOn, notify } from "./notification/data.ts";
import { buildCalendar, calendarAppointment, type Reader } from "./calendar/ics.ts";
import { findAppointment, findAppointments } from "./appointment/serialize.ts";
import { DELETED_USER } from "../contract/constants.ts";
import { clinicTimeZone } from "./time.ts";
import type { MailAttachment, MailMessage } from "./mail/index.ts";
import type { OutboxMailer } from "./mail/outbox.ts";
import { compose, mailText, toLocale, type Locale } from "./mail/templates.ts";
import { queueNoticeSms, queueNoticesSms } from "./sms/outbox.ts";
import { inIds } from "./query.ts";
import { oneSms, smsText, smsWhen } from "./sms/texts.ts";

/** A change someone else should hear of, and whom it goes to. */
const APPOINTMENT_CHANGES = {
  booked: "doctor",
  cancelledByPatient: "doctor",
  confirmed: "patient",
  rescheduled: "patient",
  cancelledByDoctor: "patient",
  proposal: "patient",
  proposalAccepted: "doctor",
  cancelledForAbsence: "patient",
  cancelledForClosure: "patient",
  // The front desk booked, moved or cancelled for the patient (docs/product.md, The front desk).
  bookedAtDesk: "patient",
  rescheduledAtDesk: "patient",
  cancelledAtDesk: "patient",
} as const satisfies Record<string, Reader>;
export type AppointmentChange = keyof typeof APPOINTMENT_CHANGES;

/** The bell's word for each change: it tells both cancellations alike. */
const NOTICE_OF: Record<AppointmentChange, NotificationKind> = {
  booked: "appointment_booked",
  cancelledByPatient: "appointment_cancelled",
  confirmed: "appointment_confirmed",
  rescheduled: "appointment_rescheduled",
  cancelledByDoctor: "appointment_cancelled",
  proposal: "proposal_received",
  proposalAccepted: "proposal_accepted",
  cancelledForAbsence: "appointment_cancelled",
  cancelledForClosure: "appointment_cancelled",
  bookedAtDesk: "appointment_confirmed",
  rescheduledAtDesk: "appointment_rescheduled",
  cancelledAtDesk: "appointment_cancelled",
};

type Loaded = NonNullable<Awaited<ReturnType<typeof findAppointment>>>;
type Recipient = {
  id: string;
  // Null for a patient record the front desk made without an address: no mail, maybe an SMS.
  email: string | null;
  username: string;
  locale: string;
  deletedAt: Date | null;
  mailNotifications: boolean;
  mailReminders: boolean;
};

const recipientColumns = {
  id: users.id,
  email: users.email,
  username: users.username,
  locale: users.locale,
  deletedAt: users.deletedAt,
  mailNotifications: users.mailNotifications,
  mailReminders: users.mailReminders,
};

async function loadRecipient(tx: Db, id: string | null): Promise<Recipient | undefined> {
  if (!id) return undefined;
  const [user] = await tx.select(recipientColumns).from(users).where(eq(users.id, id));
  return user && !user.deletedAt ? user : undefined;
}

// Date and time formats per language, built once (they are costly to build and never change).
const formats = new Map<string, { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();
function formatsFor(locale: Locale, timeZone: string) {
  const key = `${locale}|${timeZone}`;
  let f = formats.get(key);
  if (!f) {
    f = {
      date: new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone }),
      time: new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }),
    };
    formats.set(key, f);
  }
  return f;
}

/**
 * 'Tuesday 1 December 2026 from 09:00 to 09:20, West Africa Time (UTC+1)' in the reader's language
 * and the clinic zone; 'Tuesday 1 December 2026 at 09:00, ...' without an end (a time that was).
 */
function appointmentWhen(locale: Locale, startsAt: Date, endsAt?: Date, timeZone = clinicTimeZone()) {
  const f = formatsFor(locale, timeZone);
  return mailText(locale, endsAt ? "mail:appointment.whenSpan" : "mail:appointment.when", {
    date: f.date.format(startsAt),
    time: f.time.format(startsAt),
    ...(endsAt ? { end: f.time.format(endsAt) } : {}),
    zone: formatTimeZone(timeZone, locale, startsAt),
  });
}

function kindOf(locale: Locale, a: Loaded) {
  if (a.type === "online") return mailText(locale, "mail:appointment.online");
  const place = [a.place, a.city?.name].filter(Boolean).join(", ");
  return place
    ? mailText(locale, "mail:appointment.inPersonAt", { place })
    : mailText(locale, "mail:appointment.inPerson");
}

const nameOf = (user: { username: string; deletedAt: Date | null } | null | undefined) =>
  !user ? "" : user.deletedAt ? DELETED_USER : user.username;

/** The mail's sender, as the organizer of the calendar invitation (RFC 5546 wants one). */
function organizer(): { name: string; email: string } {
  const from = config().MAIL_FROM ?? "";
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  if (match) return { name: match[1].replace(/^"|"$/g, "") || "HealthBook", email: match[2] };
  return { name: "HealthBook", email: from.trim() || "no-reply@localhost" };
}

/** The 'Add to calendar' file: an invitation the mail client adds or updates, or a cancellation. */
function calendarAttachment(a: Loaded, reader: Reader, to: Mailable, cancel: boolean): MailAttachment {
  const content = buildCalendar([calendarAppointment(a)], {
    method: cancel ? "CANCEL" : "REQUEST",
    organizer: organizer(),
    attendees: [{ name: to.username, email: to.email }],
    locale: toLocale(to.locale),
    reader,
  });
  return {
    filename: "appointment.ics",
    contentType: `text/calendar; charset=utf-8; method=${cancel ? "CANCEL" : "REQUEST"}`,
    content,
  };
}

interface AppointmentMail {
  /** The key under appointment. in locales/{en,fr}/mail.json. */
  key: string;
  /** The paragraphs' keys under it, in order. */
  paragraphs: string[];
  values: (locale: Locale) => Record<string, string>;
  /** Whether the mail carries the calendar entry, and as what. */
  calendar: "add" | "cancel" | "none";
}

type Mailable = Recipient & { email: string };
const mailable = (to: Recipient | undefined): to is Mailable => Boolean(to?.email);

function appointmentMail(a: Loaded, to: Mailable, reader: Reader, mail: AppointmentMail): MailMessage {
  const locale = toLocale(to.locale);
  const values = mail.values(locale);
  const t = (key: string) => mailText(locale, `appointment.${mail.key}.${key}`, values);
  const blocks = [...mail.paragraphs.map(t), kindOf(locale, a)];
  if (mail.calendar !== "none")
    blocks.push(
      mailText(locale, mail.calendar === "cancel" ? "mail:appointment.calendarCancel" : "mail:appointment.calendar"),
    );
  blocks.push(mailText(locale, "mail:appointment.turnOff"));
  return {
    to: to.email,
    ...compose(locale, t("subject"), to.username, blocks),
    attachments: mail.calendar === "none" ? [] : [calendarAttachment(a, reader, to, mail.calendar === "cancel")],
  };
}

const PARAGRAPHS: Record<AppointmentChange, string[]> = {
  booked: ["body", "next"],
  cancelledByPatient: ["body"],
  confirmed: ["body"],
  rescheduled: ["body", "before"],
  cancelledByDoctor: ["body", "next"],
  proposal: ["body", "next"],
  proposalAccepted: ["body"],
  // "reason" only when one was given (the closed day's is always).
  cancelledForAbsence: ["body", "reason", "next"],
  cancelledForClosure: ["body", "reason", "next"],
  bookedAtDesk: ["body"],
  rescheduledAtDesk: ["body", "before"],
  cancelledAtDesk: ["body", "next"],
};

/**
 * The changes a patient also hears of by SMS (docs/sms.md), with the reminders, and the text each
 * gets (under "sms" in mail.json): a cancellation for an absence or a closed day reads as the
 * doctor's, its reason stays in the mail.
 */
const SMS_TEXTS: Partial<Record<AppointmentChange, string>> = {
  confirmed: "confirmed",
  rescheduled: "rescheduled",
  cancelledByDoctor: "cancelledByDoctor",
  cancelledForAbsence: "cancelledByDoctor",
  cancelledForClosure: "cancelledByDoctor",
  proposal: "proposal",
  bookedAtDesk: "confirmed",
  rescheduledAtDesk: "rescheduled",
  cancelledAtDesk: "cancelledByDoctor",
};

/**
 * Queues within `tx` the SMS of `key` (under "sms" in mail.json) about appointment `a` to the
 * patient `to`, if they turned SMS on for a verified phone (api/sms/outbox.ts): the clinic date and
 * time and a link to the appointment, nothing about the care itself.
 */
function queueSms(tx: Db, to: Recipient, key: string, a: Loaded) {
  // Of no use once the appointment has started: the worker drops it then.
  return queueNoticeSms(tx, { userId: to.id, text: smsOf(to, key, a), expiresAt: a.startsAt });
}

/** The SMS of `key` about appointment `a` to `to`, in their language. */
function smsOf(to: Recipient, key: string, a: Loaded) {
  const locale = toLocale(to.locale);
  const link = `${config().publicUrl}/a/${a.id}`;
  return oneSms(smsText(locale, key, { when: smsWhen(locale, a.startsAt, clinicTimeZone()) }), link);
}

/**
 * Tells `to`, the other party, of `change` to appointment `id` made by `actorId`, within `tx`: a
 * notice on their bell, a mail unless they turned such mail off or their account is gone, and for a
 * patient an SMS when they turned SMS on (docs/sms.md). The
 * actor's own notices about the appointment need no more attention. No `to` (an open request nobody
 * answered yet): nobody to tell. `previousStartsAt` is the time a rescheduled appointment had;
 * `reason` what the doctor or the admin gave for an absence or a closed day.
 * Returns whether a mail or an SMS was queued; the caller wakes the outboxes after its commit.
 */
export async function tellOfChange(
  tx: Db,
  mailer: OutboxMailer,
  id: string,
  change: AppointmentChange,
  {
    actorId,
    to,
    previousStartsAt,
    reason,
  }: { actorId: string; to: string | null; previousStartsAt?: Date; reason?: string | null },
): Promise<boolean> {
  await markSeenOn(tx, actorId, id);
  if (!to) return false;
  await notify(tx, { userId: to, appointmentId: id, kind: NOTICE_OF[change], actorId });
  const a = await findAppointment(tx, id);
  const recipient = await loadRecipient(tx, to);
  const smsKey = SMS_TEXTS[change];
  const texted = a && recipient && smsKey ? await queueSms(tx, recipient, smsKey, a) : false;
  if (!a || !mailable(recipient) || !recipient.mailNotifications) return texted;
  // A proposal's doctor is the actor: the request has no doctor yet.
  const doctor = change === "proposal" ? await loadRecipient(tx, actorId) : a.doctor;
  await mailer.enqueue(tx, changeMail(a, recipient, change, { doctor, previousStartsAt, reason }));
  return true;
}

/** The mail telling `to` of `change` to appointment `a`, in their language. */
function changeMail(
  a: Loaded,
  to: Mailable,
  change: AppointmentChange,
  {
    doctor,
    previousStartsAt,
    reason,
  }: { doctor: Parameters<typeof nameOf>[0]; previousStartsAt?: Date; reason?: string | null },
) {
  const cancel = change.startsWith("cancelled");
  return appointmentMail(a, to, APPOINTMENT_CHANGES[change], {
    key: change,
    paragraphs: PARAGRAPHS[change].filter((p) => p !== "reason" || reason),
    values: (locale) => ({
      patient: nameOf(a.patient),
      doctor: nameOf(doctor),
      // A proposal's visit has no length yet: it is the doctor's once accepted.
      when: appointmentWhen(locale, a.startsAt, change === "proposal" ? undefined : a.endsAt),
      ...(previousStartsAt ? { before: appointmentWhen(locale, previousStartsAt) } : {}),
      ...(reason ? { reason } : {}),
    }),
    // A proposal is not an appointment yet: nothing to put in a calendar.
    calendar: change === "proposal" ? "none" : cancel ? "cancel" : "add",
  });
}

/**
 * tellOfChange for the appointments of `ids`, all cancelled by `actorId` for an absence or a closed
 * day: their patients' bell notices, mails and texts, each kind written in one statement whatever
 * the number of appointments (a closed day's can be thousands, and the clinic's calendar stays
 * locked until they are written).
 */
export async function tellOfCancellations(
  tx: Db,
  mailer: OutboxMailer,
  ids: readonly string[],
  change: "cancelledForAbsence" | "cancelledForClosure",
  { actorId, reason }: { actorId: string; reason: string | null },
) {
  await tx
    .update(notifications)
    .set({ seenAt: new Date() })
    .where(
      and(eq(notifications.userId, actorId), inIds(notifications.appointmentId, ids), isNull(notifications.seenAt)),
    );
  await tx.execute(sql`
    insert into ${notifications} (user_id, appointment_id, kind, actor_id)
    select a.patient_id, a.id, ${NOTICE_OF[change]}, ${actorId}::uuid
    from ${appointments} a
    where ${inIds(sql`a.id`, ids)} and a.patient_id <> ${actorId}::uuid`);
  // Soonest first, as given: a patient's texts beyond their daily limit are the latest ones.
  const order = new Map(ids.map((id, i) => [id, i]));
  const loaded = (await findAppointments(tx, ids)).sort((x, y) => order.get(x.id)! - order.get(y.id)!);
  const recipients = new Map(
    (
      await tx
        .select(recipientColumns)
        .from(users)
        .where(inIds(users.id, [...new Set(loaded.map((a) => a.patientId))]))
    ).map((u) => [u.id, u]),
  );
  const told = loaded.flatMap((a) => {
    const to = recipients.get(a.patientId);
    return to && !to.deletedAt && to.id !== actorId ? [{ a, to }] : [];
  });
  await queueNoticesSms(
    tx,
    told.map(({ a, to }) => ({ userId: to.id, text: smsOf(to, SMS_TEXTS[change]!, a), expiresAt: a.startsAt })),
  );
  await mailer.enqueueAll(
    tx,
    told.flatMap(({ a, to }) =>
      mailable(to) && to.mailNotifications ? [changeMail(a, to, change, { doctor: a.doctor, reason })] : [],
    ),
  );
}

/**
 * Queues, within `tx`, the reminder of appointment `id` to each party who has reminders on, and an
 * SMS to the patient who turned SMS on. Returns how many messages were queued.
 */
export async function queueReminder(tx: Db, mailer: OutboxMailer, id: string): Promise<number> {
  const a = await findAppointment(tx, id);
  if (!a?.doctorId) return 0;
  let queued = 0;
  for (const reader of ["patient", "doctor"] as const) {
    const to = await loadRecipient(tx, reader === "doctor" ? a.doctorId : a.patientId);
    if (to && reader === "patient" && (await queueSms(tx, to, "reminder", a))) queued++;
    if (!mailable(to) || !to.mailReminders) continue;
    await mailer.enqueue(
      tx,
      appointmentMail(a, to, reader, {
        key: "reminder",
        paragraphs: [reader === "patient" ? "withDoctor" : "withPatient"],
        values: (locale) => ({
          patient: nameOf(a.patient),
          doctor: nameOf(a.doctor),
          when: appointmentWhen(locale, a.startsAt, a.endsAt),
        }),
        calendar: "add",
      }),
    );
    queued++;
  }
  return queued;
}
