-- The rule set (FNFE-MPE version) that validated a document's files, on the files and in the archive
-- entry; null for what was generated before the sets were recorded.
ALTER TABLE "document_files" ADD COLUMN "rule_set" text;--> statement-breakpoint
ALTER TABLE "archive_entries" ADD COLUMN "rule_set" text;--> statement-breakpoint
-- A received invoice's: the set in force on its date of receipt.
ALTER TABLE "received_invoices" ADD COLUMN "rule_set" text;
