CREATE TABLE "export_chunks" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"export_id" text NOT NULL,
	"part" text NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "export_chunks_company_id_export_id_part_seq_pk" PRIMARY KEY("company_id","export_id","part","seq")
);
--> statement-breakpoint
CREATE TABLE "exports" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"job_id" text NOT NULL,
	"period_from" text,
	"period_to" text,
	"options" jsonb NOT NULL,
	"cursor" jsonb NOT NULL,
	"count" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"chunks" integer NOT NULL,
	"sha256" text,
	"created" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "exports_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE INDEX "exports_list" ON "exports" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE INDEX "exports_expiry" ON "exports" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "invoices_accounting" ON "invoices" USING btree ("company_id","livemode","issue_date","finalized_at","id") WHERE number is not null;--> statement-breakpoint
CREATE INDEX "refunds_accounting" ON "refunds" USING btree ("company_id","livemode","refunded_at","id");--> statement-breakpoint
CREATE INDEX "payments_accounting" ON "payments" USING btree ("company_id","livemode","paid_at","id");--> statement-breakpoint
-- Chunks are written once and read whole: no TOAST compression (pglz costs more CPU than the space it saves here).
ALTER TABLE "export_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;--> statement-breakpoint
select facteur_fence_tenant_table('exports');--> statement-breakpoint
select facteur_fence_tenant_table('export_chunks');
