CREATE TABLE "storage_usage" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "storage_usage_company_id_livemode_pk" PRIMARY KEY("company_id","livemode")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"company_id" text PRIMARY KEY NOT NULL,
	"plan" text NOT NULL,
	"status" text NOT NULL,
	"current_period_start" timestamp (3) with time zone NOT NULL,
	"current_period_end" timestamp (3) with time zone NOT NULL,
	"paused_at" timestamp (3) with time zone,
	"paused_until" timestamp (3) with time zone,
	"cancelled_at" timestamp (3) with time zone,
	"reason" text,
	"announced" boolean DEFAULT true NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_period_end" ON "subscriptions" USING btree ("current_period_end") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "subscriptions_paused_until" ON "subscriptions" USING btree ("paused_until") WHERE status = 'paused' and paused_until is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_unannounced" ON "subscriptions" USING btree ("company_id") WHERE not announced;--> statement-breakpoint
-- Every existing company gets its subscription, on the plan it had, active, in the current
-- calendar month (UTC); `announced` false: the subscriptions pass emits their subscription.created.
INSERT INTO "subscriptions" ("company_id", "plan", "status", "current_period_start", "current_period_end", "reason", "announced", "created", "updated")
SELECT "id", "plan", 'active',
  date_trunc('month', now() at time zone 'UTC') at time zone 'UTC',
  (date_trunc('month', now() at time zone 'UTC') + interval '1 month') at time zone 'UTC',
  'existing_company', false, now(), now()
FROM "companies";--> statement-breakpoint
ALTER TABLE "companies" DROP COLUMN "plan";--> statement-breakpoint
select facteur_fence_tenant_table('storage_usage');