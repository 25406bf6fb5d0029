ALTER TABLE "subscriptions" ADD COLUMN "provider_subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "provider_synced_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_provider_subscription" ON "subscriptions" USING btree ("provider_subscription_id") WHERE provider_subscription_id is not null;--> statement-breakpoint
CREATE TABLE "billing_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"company_id" text,
	"outcome" text NOT NULL,
	"reason" text,
	"received" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "billing_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
select facteur_fence_private_table('billing_events');
