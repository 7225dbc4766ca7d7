// One schema for the embedded PGlite default and a real PostgreSQL server.
// Identifiers exposed in URLs are UUIDs so they cannot be enumerated.
import { relations, sql } from "drizzle-orm";
import {
  APPOINTMENT_CATEGORIES,
  APPOINTMENT_STATUSES,
  DOCTOR_VERIFICATIONS,
  FIXED_HOLIDAYS,
  GENDERS,
  NOTIFICATION_KINDS,
  PROPOSAL_STATUSES,
  ROLES,
  SLOTS,
  DEFAULT_VISIT_MINUTES,
  type SMS_CONSENT_METHODS,
  STORED_APPOINTMENT_TYPES,
  type ConsultationType,
  type Weekday,
} from "../../contract/constants.ts";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true });

// The wire's lists (contract/constants.ts) are the database's: one list each.
export const roleEnum = pgEnum("role", ROLES);
export const genderEnum = pgEnum("gender", GENDERS);
export const doctorVerificationEnum = pgEnum("doctor_verification", DOCTOR_VERIFICATIONS);
export const appointmentStatusEnum = pgEnum("appointment_status", APPOINTMENT_STATUSES);
export const appointmentTypeEnum = pgEnum("appointment_type", STORED_APPOINTMENT_TYPES);
export const appointmentCategoryEnum = pgEnum("appointment_category", APPOINTMENT_CATEGORIES);
export const proposalStatusEnum = pgEnum("proposal_status", PROPOSAL_STATUSES);
export const codePurposeEnum = pgEnum("code_purpose", ["verify", "profile", "reset", "phone"]);

export const countries = pgTable("countries", {
  id: serial("id").primaryKey(),
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
});

export const cities = pgTable(
  "cities",
  {
    id: serial("id").primaryKey(),
    countryId: integer("country_id")
      .notNull()
      .references(() => countries.id),
    name: text("name").notNull(),
  },
  (t) => [uniqueIndex("cities_country_name").on(t.countryId, t.name)],
);

export const specialities = pgTable("specialities", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  nameFr: text("name_fr").notNull(),
  icon: text("icon").notNull().default("stethoscope"),
  // General practice and the like cost the lower fee (docs/product.md, Fee).
  isGeneral: boolean("is_general").notNull().default(false),
});

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Null for a patient record the front desk made without an address.
    email: text("email"),
    passwordHash: text("password_hash").notNull(),
    role: roleEnum("role").notNull().default("patient"),
    username: text("username").notNull(),
    phone: text("phone"),
    address: text("address"),
    gender: genderEnum("gender"),
    dateOfBirth: date("date_of_birth"),
    avatarUrl: text("avatar_url"),
    otpVerified: boolean("otp_verified").notNull().default(false),
    // The language of the mail the user receives; the language form keeps it in step (docs/mail.md).
    locale: text("locale").notNull().default("en"),
    // The user's choices on the settings page: mail when an appointment changes, and reminders before it.
    mailNotifications: boolean("mail_notifications").notNull().default(true),
    mailReminders: boolean("mail_reminders").notNull().default(true),
    // Text messages (docs/sms.md): the phone was proven by an SMS code, and the user wants notices
    // and reminders by SMS. Changing the phone clears both (api/phone.ts).
    phoneVerified: boolean("phone_verified").notNull().default(false),
    sms: boolean("sms").notNull().default(false),
    countryId: integer("country_id").references(() => countries.id),
    cityId: integer("city_id").references(() => cities.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Set when the account is deleted: personal fields are erased, the row stays for history.
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    // The front desk (docs/product.md): a receptionist the admin deactivated (no token, no login,
    // what they did is kept); the receptionist who made a patient record at the desk; who took the
    // patient's consent to text messages, when and how.
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    createdBy: uuid("created_by").references((): AnyPgColumn => users.id),
    smsConsentAt: timestamp("sms_consent_at", { withTimezone: true }),
    smsConsentBy: uuid("sms_consent_by").references((): AnyPgColumn => users.id),
    smsConsentMethod: text("sms_consent_method").$type<(typeof SMS_CONSENT_METHODS)[number]>(),
    // Wrong dates of birth given to claim this desk record by signing up with its phone: at 5, only
    // the desk can help (docs/sms.md, Signing in with a phone).
    claimAttempts: smallint("claim_attempts").notNull().default(0),
  },
  (t) => [
    uniqueIndex("users_email_lower").on(sql`lower(${t.email})`),
    // The desk finds patients by their full number; two desk records never share one.
    index("users_phone").on(t.phone).where(sql`${t.deletedAt} is null`),
    uniqueIndex("users_desk_phone").on(t.phone).where(sql`${t.createdBy} is not null and ${t.deletedAt} is null`),
    // A verified phone is one person's sign-in identity (docs/decisions/0028).
    uniqueIndex("users_verified_phone").on(t.phone).where(sql`${t.phoneVerified} and ${t.deletedAt} is null`),
    // The find-a-doctor directory in name order, and its name search (ILIKE '%x%' through pg_trgm,
    // created in migration 0001). Both only cover doctors, the only users searched by name.
    index("users_doctor_directory").on(t.username, t.id).where(sql`${t.role} = 'doctor' and ${t.deletedAt} is null`),
    // Without fastupdate: new entries would wait in a pending list that every search reads whole
    // until a VACUUM merges it, and an embedded database is never vacuumed (ADR 0018).
    index("users_doctor_name_trgm")
      .using("gin", t.username.op("gin_trgm_ops"))
      .with({ fastupdate: false })
      .where(sql`${t.role} = 'doctor'`),
  ],
);

export const patients = pgTable("patients", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id),
  profession: text("profession"),
});

export const doctors = pgTable(
  "doctors",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id),
    serialNumber: text("serial_number").notNull(),
    contact: text("contact"),
    dutyHospital: text("duty_hospital"),
    biography: text("biography"),
    startYear: smallint("start_year"),
    verification: doctorVerificationEnum("verification").notNull().default("pending"),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    // The admin's reason when the registration was rejected, shown to the doctor on their pages.
    rejectionReason: text("rejection_reason"),
  },
  (t) => [
    index("doctors_verification").on(t.verification),
    // Verified doctors by id (index-only joins for the directory count), and the hospital search.
    index("doctors_verified").on(t.userId).where(sql`${t.verification} = 'verified'`),
    index("doctors_hospital_trgm").using("gin", t.dutyHospital.op("gin_trgm_ops")).with({ fastupdate: false }),
  ],
);

export const doctorSpecialities = pgTable(
  "doctor_specialities",
  {
    doctorId: uuid("doctor_id")
      .notNull()
      .references(() => doctors.userId),
    specialityId: integer("speciality_id")
      .notNull()
      .references(() => specialities.id),
  },
  (t) => [
    primaryKey({ columns: [t.doctorId, t.specialityId] }),
    index("doctor_specialities_speciality").on(t.specialityId),
  ],
);

export const appointments = pgTable(
  "appointments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    patientId: uuid("patient_id")
      .notNull()
      .references(() => users.id),
    // Null while an open request (category random) has no doctor yet.
    doctorId: uuid("doctor_id").references(() => users.id),
    specialityId: integer("speciality_id").references(() => specialities.id),
    status: appointmentStatusEnum("status").notNull().default("pending"),
    type: appointmentTypeEnum("type").notNull(),
    category: appointmentCategoryEnum("category").notNull().default("direct"),
    // The slot start (the wire's `time`, docs/product.md, Time on the wire); `date` on the wire is its day in the clinic time zone.
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    // The visit's end: its start plus the doctor's visit length when it was booked (or moved). Set
    // by a trigger of migration 0020 on every insert and move, so no caller computes it.
    endsAt: timestamp("ends_at", { withTimezone: true })
      .notNull()
      .$defaultFn(() => sql`default`),
    place: text("place"),
    cityId: integer("city_id").references(() => cities.id),
    countryId: integer("country_id").references(() => countries.id),
    // Fee in XAF, fixed at booking or when a proposal is accepted.
    price: integer("price"),
    tag: text("tag"),
    // Online details (deviceType, internetQuality, videoPreference) and the patient's reason.
    details: jsonb("details").$type<Record<string, string>>().notNull().default({}),
    // The video room's random name, given when the link is first shown (docs/calendars.md).
    videoRoom: text("video_room").unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // The day at the clinic (docs/product.md, The front desk): the desk records the arrival, the
    // doctor calls the patient in. A walk-in came without booking and holds no slot (its start is
    // its arrival). `bookedBy`: the receptionist who booked on the patient's behalf.
    arrivedAt: timestamp("arrived_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    walkIn: boolean("walk_in").notNull().default(false),
    bookedBy: uuid("booked_by").references(() => users.id),
  },
  (t) => [
    // No double booking: one active appointment per doctor per slot; walk-ins hold none.
    uniqueIndex("appointments_doctor_slot_active")
      .on(t.doctorId, t.startsAt)
      .where(sql`${t.status} in ('pending', 'confirmed') and ${t.doctorId} is not null and not ${t.walkIn}`),
    index("appointments_patient_starts").on(t.patientId, t.startsAt),
    index("appointments_doctor_starts").on(t.doctorId, t.startsAt),
    // The reminder worker's look at the confirmed appointments of the next hours (api/reminders.ts).
    index("appointments_confirmed_starts").on(t.startsAt).where(sql`${t.status} = 'confirmed'`),
    // A closed day's look at every doctor's active appointments of the day (api/appointment/period.ts).
    index("appointments_active_starts")
      .on(t.startsAt)
      .where(sql`${t.status} in ('pending', 'confirmed') and ${t.doctorId} is not null`),
    // The open requests doctors may answer (access.ts answerableRequests), soonest first.
    index("appointments_open_pool")
      .on(t.specialityId, t.startsAt)
      .where(sql`${t.doctorId} is null and ${t.category} = 'random' and ${t.status} in ('pending', 'proposed')`),
  ],
);

/** The doctors each receptionist serves (docs/product.md, The front desk), set by the admin. */
export const staffDoctors = pgTable(
  "staff_doctors",
  {
    staffId: uuid("staff_id")
      .notNull()
      .references(() => users.id),
    doctorId: uuid("doctor_id")
      .notNull()
      .references(() => doctors.userId),
  },
  (t) => [primaryKey({ columns: [t.staffId, t.doctorId] }), index("staff_doctors_doctor").on(t.doctorId)],
);

export const proposals = pgTable(
  "proposals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appointmentId: uuid("appointment_id")
      .notNull()
      .references(() => appointments.id),
    doctorId: uuid("doctor_id")
      .notNull()
      .references(() => users.id),
    status: proposalStatusEnum("status").notNull().default("pending"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("proposals_once_per_doctor").on(t.appointmentId, t.doctorId),
    index("proposals_doctor").on(t.doctorId),
  ],
);

export const consultations = pgTable(
  "consultations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    doctorId: uuid("doctor_id")
      .notNull()
      .references(() => users.id),
    patientId: uuid("patient_id")
      .notNull()
      .references(() => users.id),
    appointmentId: uuid("appointment_id").references(() => appointments.id),
    type: text("type").$type<ConsultationType>().notNull(),
    diagnosis: text("diagnosis").notNull(),
    notes: text("notes").notNull().default(""),
    prescription: jsonb("prescription").$type<string[]>().notNull().default([]),
    consultedAt: timestamp("consulted_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("consultations_doctor").on(t.doctorId, t.consultedAt), index("consultations_patient").on(t.patientId)],
);

// Verification, profile-gate and password-reset codes: hashed, single use, one live code per purpose.
export const oneTimeCodes = pgTable(
  "one_time_codes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    purpose: codePurposeEnum("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("one_time_codes_user_purpose").on(t.userId, t.purpose)],
);

// Opaque bearer tokens, stored as SHA-256 hashes; revocable, with idle and absolute expiry.
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_tokens_user").on(t.userId)],
);

// Private calendar feed URLs (docs/calendars.md): only the SHA-256 of the secret is stored. A
// revoked or renewed feed keeps its row, so a calendar still polling it is told 404 without being
// counted as someone guessing.
export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: createdAt(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  // At most one live feed per user.
  (t) => [uniqueIndex("calendar_feeds_live").on(t.userId).where(sql`${t.revokedAt} is null`)],
);

// The previous release's throttling counters, replaced by rate_limits. Unused, but kept for one
// release: pods of the previous release still read it during a rolling update (a release's
// migrations only add). The next release's migration drops it.
export const throttles = pgTable("throttles", {
  key: text("key").primaryKey(),
  hits: integer("hits").notNull().default(0),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
});

// Shared rate-limit counters (rate-limiter-flexible's drizzle store, api/throttle.ts), so
// several instances agree. The columns are the ones that store reads and writes.
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  points: integer("points").notNull().default(0),
  expire: timestamp("expire", { withTimezone: true }),
});

// Mail waiting to leave (api/mail/outbox.ts): written in the transaction of the change that causes
// it, sent by a worker, deleted once the SMTP server accepted it.
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    // Files sent with the mail (an appointment's .ics): [{filename, contentType, content}].
    attachments: jsonb("attachments").$type<MailAttachment[]>().notNull().default([]),
    attempts: integer("attempts").notNull().default(0),
    // When the next attempt is due; pushed back by the backoff after a failure.
    dueAt: timestamp("due_at", { withTimezone: true }).notNull().defaultNow(),
    // Set when the attempts are used up: the row stays for the operator, the worker skips it.
    failedAt: timestamp("failed_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_due").on(t.dueAt).where(sql`${t.failedAt} is null`)],
);

// Text messages waiting to leave, and those sent (api/sms/outbox.ts, docs/sms.md): written in the
// transaction of the change that causes them, sent by a worker over SMPP. A sent row stays (without
// its text when it held a code) for the gateway's message id and delivery receipt, the per-user
// daily limit and the hourly ceiling.
export const smsOutbox = pgTable(
  "sms_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id").references(() => users.id),
    // 'code' (a verification or reset code), 'notice' (appointment notices and reminders) or
    // 'alert' (someone tried to sign up with the number: sent whatever the SMS choice).
    kind: text("kind").notNull(),
    // Emptied, with the text, when the user's account is deleted.
    recipient: text("recipient"),
    // Emptied once sent when it held a code.
    text: text("text"),
    // When it can no longer be of use (a code's validity, an appointment's start): not sent after.
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    // Why it was dropped unsent ('expired', 'unwanted', 'account_deleted'), failed_at saying when.
    dropped: text("dropped"),
    attempts: integer("attempts").notNull().default(0),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull().defaultNow(),
    // Until when the instance that claimed it may be sending it (api/sms/outbox.ts): such a message
    // counts against the hourly ceiling like a sent one.
    leasedUntil: timestamp("leased_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    lastError: text("last_error"),
    // What the gateway answered to submit_sm, and its delivery receipt's state (DELIVRD, UNDELIV...).
    messageId: text("message_id"),
    deliveryStatus: text("delivery_status"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("sms_outbox_due").on(t.dueAt).where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
    index("sms_outbox_user_created").on(t.userId, t.createdAt),
    index("sms_outbox_sent").on(t.sentAt),
    index("sms_outbox_message_id").on(t.messageId),
  ],
);

// One row per reminder sent (api/reminders.ts): the unique key is what makes a reminder leave
// once, whatever the number of instances and restarts. The start is part of the key, so a
// rescheduled appointment is reminded again for its new time.
export const appointmentReminders = pgTable(
  "appointment_reminders",
  {
    appointmentId: uuid("appointment_id")
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    hoursBefore: smallint("hours_before").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appointmentId, t.hoursBefore, t.startsAt] })],
);

// A retried form submission replays the first answer instead of acting twice.
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    key: text("key").notNull(),
    status: integer("status").notNull(),
    body: jsonb("body").notNull(),
    /** What the key was used for (method, path, body): the same key with another body is refused. */
    requestHash: text("request_hash"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);

// Who read or changed a patient's data, other than the patient.
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorId: uuid("actor_id").references(() => users.id),
    subjectUserId: uuid("subject_user_id").references(() => users.id),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_events_subject").on(t.subjectUserId, t.at)],
);

// What needs a user's attention, one row per recipient (api/notification/data.ts): written in the
// transaction of the change it reports, marked seen when the user's bell list shows it.
export const notifications = pgTable(
  "notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    appointmentId: uuid("appointment_id")
      .notNull()
      .references(() => appointments.id),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    // Who caused it (the patient who booked, the doctor who confirmed); null when nobody did.
    actorId: uuid("actor_id").references(() => users.id),
    createdAt: createdAt(),
    seenAt: timestamp("seen_at", { withTimezone: true }),
  },
  (t) => [
    index("notifications_user_created").on(t.userId, t.createdAt, t.id),
    // The bell count reads only the unseen rows.
    index("notifications_user_unseen").on(t.userId).where(sql`${t.seenAt} is null`),
    index("notifications_appointment").on(t.appointmentId),
  ],
);

// The clinic's calendar (docs/product.md, Availability; the rule: api/appointment/availability.ts).
// A doctor's working plan: for each weekday the start times of its visits, the visits' length, the
// minimum notice and the booking horizon. Every doctor has one from their first row on: the defaults are the columns' own, and a
// trigger of migration 0010 writes the row when a doctor is inserted (the migration gave the
// existing doctors theirs).
const DEFAULT_WEEK = {
  monday: [...SLOTS],
  tuesday: [...SLOTS],
  wednesday: [...SLOTS],
  thursday: [...SLOTS],
  friday: [...SLOTS],
  saturday: [],
  sunday: [],
} satisfies Record<Weekday, string[]>;

export const workingPlans = pgTable("working_plans", {
  doctorId: uuid("doctor_id")
    .primaryKey()
    .references(() => doctors.userId),
  week: jsonb("week").$type<Record<Weekday, string[]>>().notNull().default(DEFAULT_WEEK),
  visitMinutes: integer("visit_minutes").notNull().default(DEFAULT_VISIT_MINUTES),
  minimumNoticeHours: integer("minimum_notice_hours").notNull().default(2),
  bookingHorizonDays: integer("booking_horizon_days").notNull().default(90),
  updatedAt: updatedAt(),
});

// A doctor's period away, both days included (dates of the clinic's calendar).
export const doctorAbsences = pgTable(
  "doctor_absences",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    doctorId: uuid("doctor_id")
      .notNull()
      .references(() => doctors.userId),
    startsOn: date("starts_on").notNull(),
    endsOn: date("ends_on").notNull(),
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [
    index("doctor_absences_doctor_ends").on(t.doctorId, t.endsOn),
    check("doctor_absences_period", sql`${t.startsOn} <= ${t.endsOn}`),
  ],
);

// A day the whole clinic is closed (public holidays: migration 0010 wrote the fixed ones through 2036).
export const clinicClosures = pgTable("clinic_closures", {
  id: uuid("id").primaryKey().defaultRandom(),
  date: date("date").notNull().unique(),
  reason: text("reason").notNull(),
  // One of FIXED_HOLIDAYS (contract/constants.ts) for the holidays migration 0010 wrote, which the
  // page names in its language (migration 0016); null for a day the admin added.
  holiday: text("holiday", { enum: FIXED_HOLIDAYS }),
  createdAt: createdAt(),
});

// Each doctor's next free slot as the search last found it (api/appointment/availability.ts,
// `nextFreeSlotOf`), kept until something it depends on changes. `calendar_version` counts the
// changes of what the rule reads for this doctor (plan, absences, appointments), bumped by triggers
// of migration 0013; the kept answer holds while it was found at that version and at the clinic's
// (`clinic_calendar`) and zone, and until `valid_until`, when time alone makes it wrong.
export const nextFreeSlots = pgTable("next_free_slots", {
  doctorId: uuid("doctor_id")
    .primaryKey()
    .references(() => doctors.userId, { onDelete: "cascade" }),
  calendarVersion: bigint("calendar_version", { mode: "number" }).notNull().default(0),
  foundVersion: bigint("found_version", { mode: "number" }),
  foundClinicVersion: bigint("found_clinic_version", { mode: "number" }),
  // The clinic's time zone it was found in (APP_TIMEZONE): another zone makes other instants.
  foundZone: text("found_zone"),
  slotDate: date("slot_date"),
  slotTime: text("slot_time"),
  validUntil: timestamp("valid_until", { withTimezone: true }),
});

// One row: the count of changes to the clinic's closed days (a trigger of migration 0013 bumps it).
export const clinicCalendar = pgTable(
  "clinic_calendar",
  {
    id: boolean("id").primaryKey().default(true),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("clinic_calendar_one_row", sql`${t.id}`)],
);

// Relations for drizzle's relational queries (db.query.*.findMany({ with })).
export const usersRelations = relations(users, ({ one }) => ({
  country: one(countries, { fields: [users.countryId], references: [countries.id] }),
  city: one(cities, { fields: [users.cityId], references: [cities.id] }),
  doctor: one(doctors, { fields: [users.id], references: [doctors.userId] }),
  patient: one(patients, { fields: [users.id], references: [patients.userId] }),
}));
export const doctorsRelations = relations(doctors, ({ one, many }) => ({
  user: one(users, { fields: [doctors.userId], references: [users.id] }),
  specialities: many(doctorSpecialities),
}));
export const patientsRelations = relations(patients, ({ one }) => ({
  user: one(users, { fields: [patients.userId], references: [users.id] }),
}));
export const doctorSpecialitiesRelations = relations(doctorSpecialities, ({ one }) => ({
  doctor: one(doctors, { fields: [doctorSpecialities.doctorId], references: [doctors.userId] }),
  speciality: one(specialities, { fields: [doctorSpecialities.specialityId], references: [specialities.id] }),
}));
export const citiesRelations = relations(cities, ({ one }) => ({
  country: one(countries, { fields: [cities.countryId], references: [countries.id] }),
}));
export const appointmentsRelations = relations(appointments, ({ one, many }) => ({
  patient: one(users, {
    fields: [appointments.patientId],
    references: [users.id],
    relationName: "appointment_patient",
  }),
  doctor: one(users, { fields: [appointments.doctorId], references: [users.id], relationName: "appointment_doctor" }),
  speciality: one(specialities, { fields: [appointments.specialityId], references: [specialities.id] }),
  city: one(cities, { fields: [appointments.cityId], references: [cities.id] }),
  country: one(countries, { fields: [appointments.countryId], references: [countries.id] }),
  proposals: many(proposals),
}));
export const proposalsRelations = relations(proposals, ({ one }) => ({
  appointment: one(appointments, { fields: [proposals.appointmentId], references: [appointments.id] }),
  doctor: one(users, { fields: [proposals.doctorId], references: [users.id] }),
}));
export const consultationsRelations = relations(consultations, ({ one }) => ({
  doctor: one(users, { fields: [consultations.doctorId], references: [users.id], relationName: "consultation_doctor" }),
  patient: one(users, {
    fields: [consultations.patientId],
    references: [users.id],
    relationName: "consultation_patient",
  }),
  appointment: one(appointments, { fields: [consultations.appointmentId], references: [appointments.id] }),
}));
