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
	"request" jsonb,
	CONSTRAINT "events_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_company" ON "api_keys" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created" ON "idempotency_keys" USING btree ("created");--> statement-breakpoint
CREATE INDEX "events_list" ON "events" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE INDEX "events_by_type" ON "events" USING btree ("company_id","livemode","type","id");