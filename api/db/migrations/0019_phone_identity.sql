-- Phone numbers as sign-in identities (docs/decisions/0028): a verified phone is one person's.
-- Before this, two accounts could each verify one number for their text messages; the oldest keeps
-- it verified, the others are unverified (and their texts stop) until they verify a number of their own.
UPDATE "users" u SET "phone_verified" = false, "sms" = false
WHERE u."phone_verified" AND u."deleted_at" IS NULL AND EXISTS (
  SELECT 1 FROM "users" o
  WHERE o."phone" = u."phone" AND o."phone_verified" AND o."deleted_at" IS NULL
    AND (o."created_at", o."id") < (u."created_at", u."id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "users_verified_phone" ON "users" USING btree ("phone") WHERE "users"."phone_verified" and "users"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "claim_attempts" smallint DEFAULT 0 NOT NULL;
