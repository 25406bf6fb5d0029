CREATE TABLE "received_invoice_files" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"received_invoice_id" text NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"name" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "received_invoice_files_company_id_livemode_received_invoice_id_kind_pk" PRIMARY KEY("company_id","livemode","received_invoice_id","kind")
);
--> statement-breakpoint
CREATE TABLE "received_invoice_history" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"received_invoice_id" text NOT NULL,
	"seq" integer NOT NULL,
	"status" text NOT NULL,
	"action" text,
	"reason_code" text,
	"reason" text,
	"message_id" text,
	"platform_flow_id" text,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "received_invoice_history_company_id_livemode_received_invoice_id_seq_pk" PRIMARY KEY("company_id","livemode","received_invoice_id","seq")
);
--> statement-breakpoint
CREATE TABLE "received_invoices" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"flow_id" text NOT NULL,
	"pa_invoice_id" text NOT NULL,
	"status" text NOT NULL,
	"syntax" text NOT NULL,
	"sender_siret" text,
	"sender_siren" text,
	"sender_name" text,
	"number" text NOT NULL,
	"issue_date" text,
	"document" jsonb NOT NULL,
	"conformant" boolean,
	"validation_errors" jsonb NOT NULL,
	"validators" jsonb NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "received_invoices_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE INDEX "received_invoice_history_at" ON "received_invoice_history" USING btree ("company_id","livemode","at");--> statement-breakpoint
CREATE UNIQUE INDEX "received_invoices_flow" ON "received_invoices" USING btree ("company_id","livemode","flow_id");--> statement-breakpoint
CREATE INDEX "received_invoices_list" ON "received_invoices" USING btree ("company_id","livemode","id");--> statement-breakpoint
select facteur_fence_tenant_table('received_invoices');--> statement-breakpoint
select facteur_fence_tenant_table('received_invoice_files');--> statement-breakpoint
select facteur_fence_tenant_table('received_invoice_history');
