CREATE TABLE "document_deposits" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"document_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"document_kind" text NOT NULL,
	"establishment_id" text NOT NULL,
	"state" text NOT NULL,
	"tracking_id" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"flow_id" text,
	"last_error" text,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "document_deposits_company_id_livemode_document_id_attempt_pk" PRIMARY KEY("company_id","livemode","document_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "platform_readers" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"establishment_id" text NOT NULL,
	"connection_key" text NOT NULL,
	"cursor" text,
	"webhook_id" text,
	"signing_key" text,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"last_polled_at" timestamp (3) with time zone,
	"last_error" text,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "platform_readers_company_id_livemode_establishment_id_pk" PRIMARY KEY("company_id","livemode","establishment_id")
);
--> statement-breakpoint
CREATE TABLE "platform_status_receipts" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"event_key" text NOT NULL,
	"document_id" text,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "platform_status_receipts_company_id_livemode_event_key_pk" PRIMARY KEY("company_id","livemode","event_key")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "document_deposits_tracking" ON "document_deposits" USING btree ("company_id","livemode","tracking_id");--> statement-breakpoint
CREATE INDEX "document_deposits_due" ON "document_deposits" USING btree ("next_attempt_at") WHERE state in ('pending', 'waiting_directory');--> statement-breakpoint
select facteur_fence_tenant_table('document_deposits');--> statement-breakpoint
select facteur_fence_tenant_table('platform_readers');--> statement-breakpoint
select facteur_fence_tenant_table('platform_status_receipts');