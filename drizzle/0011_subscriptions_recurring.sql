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
select facteur_fence_tenant_table('storage_usage');--> statement-breakpoint
CREATE TABLE "recurring_invoice_runs" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"recurring_invoice_id" text NOT NULL,
	"period" text NOT NULL,
	"status" text NOT NULL,
	"invoice_id" text,
	"error_code" text,
	"error_message" text,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "recurring_invoice_runs_company_id_recurring_invoice_id_period_pk" PRIMARY KEY("company_id","recurring_invoice_id","period")
);
--> statement-breakpoint
CREATE TABLE "recurring_invoices" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"status" text NOT NULL,
	"customer_id" text,
	"buyer" jsonb,
	"lines" jsonb NOT NULL,
	"tax_source" text NOT NULL,
	"currency" text NOT NULL,
	"payment_terms_days" integer,
	"payment_terms" text,
	"notes" text,
	"metadata" jsonb NOT NULL,
	"interval" text NOT NULL,
	"day_of_month" integer NOT NULL,
	"start_date" text NOT NULL,
	"end_date" text,
	"count" integer,
	"mode" text NOT NULL,
	"auto_send" boolean NOT NULL,
	"next_period" text,
	"next_run_at" timestamp (3) with time zone,
	"last_period" text,
	"last_run" jsonb,
	"invoices_generated" integer NOT NULL,
	"runs_failed" integer NOT NULL,
	"paused_at" timestamp (3) with time zone,
	"cancelled_at" timestamp (3) with time zone,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "recurring_invoices_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "recurring_invoice_id" text;--> statement-breakpoint
CREATE INDEX "recurring_invoice_runs_unsettled" ON "recurring_invoice_runs" USING btree ("locked_until") WHERE status in ('pending', 'finalized');--> statement-breakpoint
CREATE INDEX "recurring_invoices_list" ON "recurring_invoices" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE INDEX "recurring_invoices_due" ON "recurring_invoices" USING btree ("next_run_at") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "invoices_by_recurring" ON "invoices" USING btree ("company_id","livemode","recurring_invoice_id","id") WHERE recurring_invoice_id is not null;--> statement-breakpoint
select facteur_fence_tenant_table('recurring_invoices');--> statement-breakpoint
select facteur_fence_tenant_table('recurring_invoice_runs');