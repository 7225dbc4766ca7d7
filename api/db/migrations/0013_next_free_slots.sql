CREATE TABLE "clinic_calendar" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "clinic_calendar_one_row" CHECK ("clinic_calendar"."id")
);
--> statement-breakpoint
CREATE TABLE "next_free_slots" (
	"doctor_id" uuid PRIMARY KEY NOT NULL,
	"calendar_version" bigint DEFAULT 0 NOT NULL,
	"found_version" bigint,
	"found_clinic_version" bigint,
	"found_zone" text,
	"slot_date" date,
	"slot_time" text,
	"valid_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "next_free_slots" ADD CONSTRAINT "next_free_slots_doctor_id_doctors_user_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The clinic's one row, and one row for each doctor (a doctor is whoever has a working plan; each
-- new plan gets its row from the trigger below).
INSERT INTO "clinic_calendar" DEFAULT VALUES;--> statement-breakpoint
INSERT INTO "next_free_slots" ("doctor_id") SELECT "doctor_id" FROM "working_plans";--> statement-breakpoint
CREATE FUNCTION "next_free_slot_of_new_plan"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "next_free_slots" ("doctor_id") VALUES (NEW."doctor_id") ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "working_plans_next_free_slot" AFTER INSERT ON "working_plans" FOR EACH ROW EXECUTE FUNCTION "next_free_slot_of_new_plan"();--> statement-breakpoint
-- Whatever changes a row the availability rule reads for a doctor (their plan, an absence, an
-- appointment of theirs) counts one more change of that doctor's calendar, in the same
-- transaction: a next free slot found before it is no longer kept. Plans and absences change a row
-- at a time.
CREATE FUNCTION "doctor_calendar_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' AND OLD."doctor_id" IS NOT NULL THEN
		UPDATE "next_free_slots" SET "calendar_version" = "calendar_version" + 1 WHERE "doctor_id" = OLD."doctor_id";
	END IF;
	IF TG_OP <> 'DELETE' AND NEW."doctor_id" IS NOT NULL AND (TG_OP = 'INSERT' OR NEW."doctor_id" IS DISTINCT FROM OLD."doctor_id") THEN
		UPDATE "next_free_slots" SET "calendar_version" = "calendar_version" + 1 WHERE "doctor_id" = NEW."doctor_id";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "working_plans_calendar_changed" AFTER UPDATE OF "week", "minimum_notice_hours", "booking_horizon_days" ON "working_plans" FOR EACH ROW EXECUTE FUNCTION "doctor_calendar_changed"();--> statement-breakpoint
CREATE TRIGGER "doctor_absences_calendar_changed" AFTER INSERT OR UPDATE OR DELETE ON "doctor_absences" FOR EACH ROW EXECUTE FUNCTION "doctor_calendar_changed"();--> statement-breakpoint
-- Appointments change in bulk too (a closed day cancels a whole clinic's, an import adds
-- thousands): one count per doctor and statement, from the statement's transition tables, rather
-- than one update per row (a row trigger made a bulk insert four times slower).
CREATE FUNCTION "appointments_calendar_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE "next_free_slots" SET "calendar_version" = "calendar_version" + 1
		WHERE "doctor_id" IN (SELECT "doctor_id" FROM "new_rows");
	ELSIF TG_OP = 'DELETE' THEN
		UPDATE "next_free_slots" SET "calendar_version" = "calendar_version" + 1
		WHERE "doctor_id" IN (SELECT "doctor_id" FROM "old_rows");
	ELSE
		-- Only a change of what the rule reads: the doctor, the start, the status.
		UPDATE "next_free_slots" SET "calendar_version" = "calendar_version" + 1
		WHERE "doctor_id" IN (
			SELECT unnest(ARRAY[o."doctor_id", n."doctor_id"]) FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
			WHERE (o."doctor_id", o."starts_at", o."status") IS DISTINCT FROM (n."doctor_id", n."starts_at", n."status"));
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "appointments_inserted_calendar_changed" AFTER INSERT ON "appointments" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "appointments_calendar_changed"();--> statement-breakpoint
CREATE TRIGGER "appointments_updated_calendar_changed" AFTER UPDATE ON "appointments" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "appointments_calendar_changed"();--> statement-breakpoint
CREATE TRIGGER "appointments_deleted_calendar_changed" AFTER DELETE ON "appointments" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "appointments_calendar_changed"();--> statement-breakpoint
-- A closed day opened or closed changes every doctor's calendar: one count for the clinic.
CREATE FUNCTION "clinic_calendar_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "clinic_calendar" SET "version" = "version" + 1;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "clinic_closures_calendar_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "clinic_closures" FOR EACH STATEMENT EXECUTE FUNCTION "clinic_calendar_changed"();
