-- UBL 2.1 issued (issue 36): every finalized document's files include its UBL Invoice or CreditNote,
-- generated and validated with the others and frozen with them (src/invoices/generation.ts). Rows
-- generated before this have none (null): their files stay as archived.
ALTER TABLE "document_files" ADD COLUMN "ubl" bytea;
