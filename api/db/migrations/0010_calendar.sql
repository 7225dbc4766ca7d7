CREATE TABLE "clinic_closures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"date" date NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinic_closures_date_unique" UNIQUE("date")
);
--> statement-breakpoint
CREATE TABLE "doctor_absences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"doctor_id" uuid NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "doctor_absences_period" CHECK ("doctor_absences"."starts_on" <= "doctor_absences"."ends_on")
);
--> statement-breakpoint
CREATE TABLE "working_plans" (
	"doctor_id" uuid PRIMARY KEY NOT NULL,
	"week" jsonb DEFAULT '{"monday":["09:00","10:00","11:00","14:00","15:00","16:00"],"tuesday":["09:00","10:00","11:00","14:00","15:00","16:00"],"wednesday":["09:00","10:00","11:00","14:00","15:00","16:00"],"thursday":["09:00","10:00","11:00","14:00","15:00","16:00"],"friday":["09:00","10:00","11:00","14:00","15:00","16:00"],"saturday":[],"sunday":[]}'::jsonb NOT NULL,
	"minimum_notice_hours" integer DEFAULT 2 NOT NULL,
	"booking_horizon_days" integer DEFAULT 90 NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "doctor_absences" ADD CONSTRAINT "doctor_absences_doctor_id_doctors_user_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "working_plans" ADD CONSTRAINT "working_plans_doctor_id_doctors_user_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "doctor_absences_doctor_ends" ON "doctor_absences" USING btree ("doctor_id","ends_on");--> statement-breakpoint
-- Every doctor has a working plan, with the columns' defaults until they change it: the existing
-- doctors get theirs here, and each doctor inserted later gets it from the trigger, whatever
-- inserts the doctor (registration, the demo seed, a test).
INSERT INTO "working_plans" ("doctor_id") SELECT "user_id" FROM "doctors";--> statement-breakpoint
CREATE FUNCTION "working_plan_of_new_doctor"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "working_plans" ("doctor_id") VALUES (NEW."user_id") ON CONFLICT DO NOTHING;
	RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "doctors_working_plan" AFTER INSERT ON "doctors" FOR EACH ROW EXECUTE FUNCTION "working_plan_of_new_doctor"();--> statement-breakpoint
-- Cameroon's fixed public holidays through 2036; the admin adds the moving ones (Good Friday,
-- Ascension, the two Eids) and the years after (docs/product.md, Availability).
INSERT INTO "clinic_closures" ("date", "reason")
SELECT make_date(y, h.m, h.d), h.reason
FROM generate_series(2026, 2036) AS y
CROSS JOIN (VALUES
	(1, 1, 'New Year''s Day / Jour de l''An'),
	(2, 11, 'Youth Day / Fête de la Jeunesse'),
	(5, 1, 'Labour Day / Fête du Travail'),
	(5, 20, 'National Day / Fête nationale'),
	(8, 15, 'Assumption / Assomption'),
	(12, 25, 'Christmas / Noël')
) AS h(m, d, reason)
ON CONFLICT ("date") DO NOTHING;
