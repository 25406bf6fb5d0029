CREATE TABLE "archive_entries" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"sequence" bigint NOT NULL,
	"document_id" text NOT NULL,
	"document_kind" text NOT NULL,
	"document_number" text NOT NULL,
	"file_hashes" jsonb NOT NULL,
	"archived_at" timestamp (3) with time zone NOT NULL,
	"previous_hash" text NOT NULL,
	"entry_hash" text NOT NULL,
	CONSTRAINT "archive_entries_company_id_livemode_sequence_pk" PRIMARY KEY("company_id","livemode","sequence")
);
--> statement-breakpoint
CREATE TABLE "document_files" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"document_id" text NOT NULL,
	"document_kind" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"failure" jsonb,
	"files" jsonb,
	"facturx" "bytea",
	"xml" "bytea",
	"pdf" "bytea",
	"created" timestamp (3) with time zone NOT NULL,
	"generated_at" timestamp (3) with time zone,
	CONSTRAINT "document_files_company_id_document_id_pk" PRIMARY KEY("company_id","document_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "archive_entries_document" ON "archive_entries" USING btree ("company_id","livemode","document_id");--> statement-breakpoint
CREATE INDEX "document_files_due" ON "document_files" USING btree ("next_attempt_at") WHERE state in ('pending', 'generating');--> statement-breakpoint
select facteur_fence_tenant_table('document_files');--> statement-breakpoint
select facteur_fence_tenant_table('archive_entries');--> statement-breakpoint
-- The legal archive is append-only: the roles of the service may only read and add entries, and
-- the trigger refuses any change or removal, whoever asks (only a superuser disabling it can).
REVOKE UPDATE, DELETE, TRUNCATE ON archive_entries FROM facteur_tenant, facteur_worker;--> statement-breakpoint
CREATE OR REPLACE FUNCTION facteur_archive_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'archive_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER archive_entries_append_only BEFORE UPDATE OR DELETE ON archive_entries
  FOR EACH ROW EXECUTE FUNCTION facteur_archive_append_only();--> statement-breakpoint
CREATE TRIGGER archive_entries_no_truncate BEFORE TRUNCATE ON archive_entries
  FOR EACH STATEMENT EXECUTE FUNCTION facteur_archive_append_only();
