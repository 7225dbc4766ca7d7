DROP INDEX "doctors_hospital_trgm";--> statement-breakpoint
DROP INDEX "users_doctor_name_trgm";--> statement-breakpoint
CREATE INDEX "doctors_hospital_trgm" ON "doctors" USING gin ("duty_hospital" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "users_doctor_name_trgm" ON "users" USING gin ("username" gin_trgm_ops) WITH (fastupdate=false) WHERE "users"."role" = 'doctor';