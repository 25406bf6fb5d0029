CREATE TABLE "card_payment_providers" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"provider" text NOT NULL,
	"secret_key" text NOT NULL,
	"secret_key_last4" text NOT NULL,
	"secret_key_verified_at" timestamp (3) with time zone,
	"webhook_secret" text NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "card_payment_providers_company_id_livemode_pk" PRIMARY KEY("company_id","livemode")
);
--> statement-breakpoint
CREATE TABLE "card_payment_events" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"payment_id" text,
	"reason" text,
	"received" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "card_payment_events_company_id_livemode_provider_event_id_pk" PRIMARY KEY("company_id","livemode","provider","event_id")
);
--> statement-breakpoint
select facteur_fence_tenant_table('card_payment_providers');--> statement-breakpoint
select facteur_fence_tenant_table('card_payment_events');
