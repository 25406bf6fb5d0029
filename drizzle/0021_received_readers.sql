CREATE TABLE "received_readers" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"establishment_id" text NOT NULL,
	"connection_key" text,
	"cursor" text,
	"webhook_id" text,
	"signing_key" text,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"last_polled_at" timestamp (3) with time zone,
	"last_error" text,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "received_readers_company_id_livemode_establishment_id_pk" PRIMARY KEY("company_id","livemode","establishment_id")
);
--> statement-breakpoint
ALTER TABLE "platform_readers" ALTER COLUMN "connection_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "received_invoices" ADD COLUMN "establishment_id" text;--> statement-breakpoint
select facteur_fence_tenant_table('received_readers');