CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "appointments_open_pool" ON "appointments" USING btree ("speciality_id","starts_at") WHERE "appointments"."doctor_id" is null and "appointments"."category" = 'random' and "appointments"."status" in ('pending', 'proposed');--> statement-breakpoint
CREATE INDEX "doctors_verified" ON "doctors" USING btree ("user_id") WHERE "doctors"."verification" = 'verified';--> statement-breakpoint
CREATE INDEX "doctors_hospital_trgm" ON "doctors" USING gin ("duty_hospital" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_doctor_directory" ON "users" USING btree ("username","id") WHERE "users"."role" = 'doctor' and "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_doctor_name_trgm" ON "users" USING gin ("username" gin_trgm_ops) WHERE "users"."role" = 'doctor';