-- A new closed day locks every active appointment of that day, whoever the doctor: without an
-- index that starts with the start time for pending and confirmed rows, that was a scan of every
-- doctor's active appointments under the clinic-wide lock (api/appointment/period.ts).
CREATE INDEX "appointments_active_starts" ON "appointments" USING btree ("starts_at") WHERE "appointments"."status" in ('pending', 'confirmed') and "appointments"."doctor_id" is not null;
