-- Each doctor's visit length (docs/product.md, Availability): the plan's starts are any times on a
-- 5-minute grid, each visit `visit_minutes` long. Every existing doctor keeps the hourly visits.
ALTER TABLE "working_plans" ADD COLUMN "visit_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "working_plans" ADD CONSTRAINT "working_plans_visit_minutes" CHECK ("visit_minutes" BETWEEN 5 AND 120);--> statement-breakpoint
-- An appointment keeps the length it was booked with: a plan changed later moves no visit, and the
-- old visit blocks the new starts it overlaps. The trigger sets the end from the doctor's plan
-- whenever the start or the doctor changes (a booking, a reschedule, an accepted proposal); an open
-- request without a doctor yet lasts an hour, the length of its six preferred times.
ALTER TABLE "appointments" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
UPDATE "appointments" SET "ends_at" = "starts_at" + interval '60 minutes';--> statement-breakpoint
ALTER TABLE "appointments" ALTER COLUMN "ends_at" SET NOT NULL;--> statement-breakpoint
CREATE FUNCTION appointments_set_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.ends_at := NEW.starts_at + coalesce(
    (SELECT visit_minutes FROM working_plans WHERE doctor_id = NEW.doctor_id), 60) * interval '1 minute';
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "appointments_set_end_on_insert" BEFORE INSERT ON "appointments"
  FOR EACH ROW EXECUTE FUNCTION appointments_set_end();--> statement-breakpoint
CREATE TRIGGER "appointments_set_end_on_move" BEFORE UPDATE OF "starts_at", "doctor_id" ON "appointments"
  FOR EACH ROW WHEN (OLD.starts_at IS DISTINCT FROM NEW.starts_at OR OLD.doctor_id IS DISTINCT FROM NEW.doctor_id)
  EXECUTE FUNCTION appointments_set_end();--> statement-breakpoint
-- No two visits of one doctor overlap, whatever the plans were when they were booked (the rule
-- refuses them first, with visit_overlap; this holds under any concurrency). A walk-in holds no slot.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_overlap" EXCLUDE USING gist (
  "doctor_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&
) WHERE ("status" IN ('pending', 'confirmed') AND "doctor_id" IS NOT NULL AND NOT "walk_in");
--> statement-breakpoint
-- A new visit length changes the doctor's free starts: the kept next free slot must be walked again.
DROP TRIGGER "working_plans_calendar_changed" ON "working_plans";--> statement-breakpoint
CREATE TRIGGER "working_plans_calendar_changed" AFTER UPDATE OF "week", "visit_minutes", "minimum_notice_hours", "booking_horizon_days" ON "working_plans" FOR EACH ROW EXECUTE FUNCTION "doctor_calendar_changed"();
