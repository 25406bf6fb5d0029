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