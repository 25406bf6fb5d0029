CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_last4" text NOT NULL,
	"scopes" text[],
	"expires_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	"last_used_at" timestamp (3) with time zone,
	"created" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"siren" text NOT NULL,
	"plan" text NOT NULL,
	"email" text,
	"sandbox_clock_offset_ms" bigint DEFAULT 0 NOT NULL,
	"created" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"lock_token" text NOT NULL,
	"state" text NOT NULL,
	"locked_at" timestamp (3) with time zone NOT NULL,
	"effect_committed" boolean DEFAULT false NOT NULL,
	"response_status" integer,
	"response_headers" jsonb,
	"response_body" text,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_company_id_livemode_key_pk" PRIMARY KEY("company_id","livemode","key")
);
--> statement-breakpoint
CREATE TABLE "auth_failures" (
	"ip" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp (3) with time zone NOT NULL,
	"failures" integer NOT NULL,
	"blocked_until" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "rate_windows" (
	"bucket" text NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_windows_bucket_window_start_pk" PRIMARY KEY("bucket","window_start")
);
--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"company_id" text NOT NULL,
	"period" text NOT NULL,
	"metric" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "usage_counters_company_id_period_metric_pk" PRIMARY KEY("company_id","period","metric")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"api_version" text NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"data" jsonb NOT NULL,
	"retained_until" timestamp (3) with time zone NOT NULL,
	"request" jsonb,
	CONSTRAINT "events_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"company_id" text NOT NULL,
	"delivery_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"event_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"generation" integer NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"status_code" integer,
	"error" text,
	CONSTRAINT "webhook_attempts_company_id_delivery_id_attempt_pk" PRIMARY KEY("company_id","delivery_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"event_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"generation" integer NOT NULL,
	"state" text NOT NULL,
	"attempt_count" integer NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhook_deliveries_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp (3) with time zone,
	"status" text NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp (3) with time zone,
	"last_alert_at" timestamp (3) with time zone,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "webhook_endpoints_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "emails" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"to" text,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "emails_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_company" ON "api_keys" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created" ON "idempotency_keys" USING btree ("created");--> statement-breakpoint
CREATE INDEX "events_list" ON "events" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE INDEX "events_by_type" ON "events" USING btree ("company_id","livemode","type","id");--> statement-breakpoint
CREATE INDEX "events_retention" ON "events" USING btree ("retained_until");--> statement-breakpoint
CREATE INDEX "webhook_attempts_event" ON "webhook_attempts" USING btree ("company_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_generation" ON "webhook_deliveries" USING btree ("company_id","event_id","endpoint_id","generation");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_endpoints_list" ON "webhook_endpoints" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE INDEX "emails_list" ON "emails" USING btree ("company_id","livemode","id");