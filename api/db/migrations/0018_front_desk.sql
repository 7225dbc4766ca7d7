-- The front desk (docs/product.md, The front desk): the receptionist role; the doctors each one
-- serves; patient records made at the desk (no e-mail needed, who made them, the SMS consent: who
-- took it, when, how); staff deactivation; an appointment's day (arrival, call-in, walk-in, who
-- booked it on the patient's behalf). The new role value is not used in this transaction.
ALTER TYPE "public"."role" ADD VALUE 'receptionist';--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_consent_by" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms_consent_method" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sms_consent_by_users_id_fk" FOREIGN KEY ("sms_consent_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The desk finds patients by their full number; two desk records never share one.
CREATE INDEX "users_phone" ON "users" USING btree ("phone") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_desk_phone" ON "users" USING btree ("phone") WHERE "users"."created_by" is not null and "users"."deleted_at" is null;--> statement-breakpoint
CREATE TABLE "staff_doctors" (
	"staff_id" uuid NOT NULL,
	"doctor_id" uuid NOT NULL,
	CONSTRAINT "staff_doctors_staff_id_doctor_id_pk" PRIMARY KEY("staff_id","doctor_id")
);
--> statement-breakpoint
ALTER TABLE "staff_doctors" ADD CONSTRAINT "staff_doctors_staff_id_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_doctors" ADD CONSTRAINT "staff_doctors_doctor_id_doctors_user_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."doctors"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_doctors_doctor" ON "staff_doctors" USING btree ("doctor_id");--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "arrived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "walk_in" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "booked_by" uuid;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_booked_by_users_id_fk" FOREIGN KEY ("booked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A walk-in is seen between the booked patients and holds no slot: the one-booking-per-slot index
-- leaves it out (same name, same transaction: no moment without the guard).
DROP INDEX "appointments_doctor_slot_active";--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_doctor_slot_active" ON "appointments" USING btree ("doctor_id","starts_at") WHERE "appointments"."status" in ('pending', 'confirmed') and "appointments"."doctor_id" is not null and not "appointments"."walk_in";
