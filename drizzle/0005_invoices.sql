CREATE TABLE "invoices" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"number" text,
	"series" text,
	"status" text NOT NULL,
	"document_status" text NOT NULL,
	"transmission_status" text NOT NULL,
	"transmission_detail" text,
	"payment_status" text NOT NULL,
	"customer_id" text,
	"buyer" jsonb,
	"currency" text NOT NULL,
	"tax_source" text,
	"tax_decision_id" text,
	"backing_decision_id" text,
	"lines" jsonb NOT NULL,
	"issue_date" text,
	"due_date" text,
	"delivery_date" text,
	"payment_terms_days" integer,
	"payment_terms" text,
	"notes" text,
	"metadata" jsonb NOT NULL,
	"subtotal" bigint NOT NULL,
	"total_tax" bigint,
	"total" bigint,
	"amount_paid" bigint NOT NULL,
	"amount_refunded" bigint NOT NULL,
	"amount_credited" bigint NOT NULL,
	"tax" jsonb,
	"einvoicing" jsonb NOT NULL,
	"history" jsonb NOT NULL,
	"related_invoice_id" text,
	"related_invoice_number" text,
	"quote_id" text,
	"portal_token" text,
	"due_at" timestamp (3) with time zone,
	"overdue_at" timestamp (3) with time zone,
	"finalized_at" timestamp (3) with time zone,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "invoices_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"reference" text,
	"paid_at" timestamp (3) with time zone NOT NULL,
	"recorded_by" text NOT NULL,
	"fr212" jsonb,
	"metadata" jsonb NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "payments_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"credit_note_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"reference" text,
	"refunded_at" timestamp (3) with time zone NOT NULL,
	"metadata" jsonb NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "refunds_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"number" text,
	"status" text NOT NULL,
	"customer_id" text,
	"buyer" jsonb,
	"currency" text NOT NULL,
	"lines" jsonb NOT NULL,
	"subtotal" bigint NOT NULL,
	"issue_date" text,
	"valid_until" text,
	"notes" text,
	"metadata" jsonb NOT NULL,
	"invoice_id" text,
	"expires_at" timestamp (3) with time zone,
	"finalized_at" timestamp (3) with time zone,
	"sent_at" timestamp (3) with time zone,
	"decided_at" timestamp (3) with time zone,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "quotes_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE INDEX "invoices_list" ON "invoices" USING btree ("company_id","livemode","kind","id");--> statement-breakpoint
CREATE INDEX "invoices_by_status" ON "invoices" USING btree ("company_id","livemode","kind","status","id");--> statement-breakpoint
CREATE INDEX "invoices_by_customer" ON "invoices" USING btree ("company_id","livemode","kind","customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number" ON "invoices" USING btree ("company_id","livemode","number") WHERE number is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_backing_decision" ON "invoices" USING btree ("company_id","backing_decision_id") WHERE backing_decision_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_portal_token" ON "invoices" USING btree ("portal_token") WHERE portal_token is not null;--> statement-breakpoint
CREATE INDEX "invoices_overdue_due" ON "invoices" USING btree ("due_at") WHERE overdue_at is null and document_status = 'finalized';--> statement-breakpoint
CREATE INDEX "invoices_related" ON "invoices" USING btree ("company_id","related_invoice_id") WHERE related_invoice_id is not null;--> statement-breakpoint
CREATE INDEX "payments_list" ON "payments" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE INDEX "payments_by_invoice" ON "payments" USING btree ("company_id","livemode","invoice_id","id");--> statement-breakpoint
CREATE INDEX "refunds_by_credit_note" ON "refunds" USING btree ("company_id","livemode","credit_note_id","id");--> statement-breakpoint
CREATE INDEX "quotes_list" ON "quotes" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_number" ON "quotes" USING btree ("company_id","livemode","number") WHERE number is not null;--> statement-breakpoint
CREATE INDEX "quotes_expiry" ON "quotes" USING btree ("expires_at") WHERE status in ('finalized', 'sent');