ALTER TYPE "public"."code_purpose" ADD VALUE 'phone';--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"kind" text NOT NULL,
	"recipient" text NOT NULL,
	"text" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text,
	"message_id" text,
	"delivery_status" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sms" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD CONSTRAINT "sms_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_outbox_due" ON "sms_outbox" USING btree ("due_at") WHERE "sms_outbox"."sent_at" is null and "sms_outbox"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "sms_outbox_user_created" ON "sms_outbox" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_outbox_sent" ON "sms_outbox" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "sms_outbox_message_id" ON "sms_outbox" USING btree ("message_id");