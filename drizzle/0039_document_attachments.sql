-- Attachments (BG-24 supporting documents) of invoices and credit notes: their metadata is the
-- document's (`attachments`, frozen with it at finalization, as its lines are); their bytes live
-- here, one row each, added and removed only while the document is a draft
-- (src/invoices/attachments.ts), counted in the plan's storage.
ALTER TABLE "invoices" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
CREATE TABLE "document_attachments" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"document_id" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "document_attachments_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE INDEX "document_attachments_by_document" ON "document_attachments" USING btree ("company_id","document_id");--> statement-breakpoint
select facteur_fence_tenant_table('document_attachments');
