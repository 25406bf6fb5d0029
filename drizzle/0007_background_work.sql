CREATE TABLE "periodic_passes" (
	"name" text PRIMARY KEY NOT NULL,
	"every_ms" integer NOT NULL,
	"next_run_at" timestamp (3) with time zone NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"last_run_at" timestamp (3) with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "livemode" boolean;--> statement-breakpoint
UPDATE "webhook_attempts" a SET "livemode" = d."livemode" FROM "webhook_deliveries" d WHERE d."company_id" = a."company_id" AND d."id" = a."delivery_id";--> statement-breakpoint
DELETE FROM "webhook_attempts" WHERE "livemode" IS NULL;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ALTER COLUMN "livemode" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "next_attempt_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "locked_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD COLUMN "lock_token" text;--> statement-breakpoint
UPDATE "emails" SET "next_attempt_at" = "created" WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "emails_due" ON "emails" USING btree ("next_attempt_at") WHERE status = 'pending';