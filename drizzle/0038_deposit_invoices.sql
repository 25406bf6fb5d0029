-- Deposit invoices (BT-3 386, "facture d'acompte") and the final invoice that deducts them
-- (frame B4/S4/M4): the final invoice freezes the deposits it deducts (number, date, amount) and
-- their sum (BT-113); each deposit names the one final invoice that deducted it, set under its row
-- lock by that finalization, so a deposit is deducted once (src/invoices/deposit-deduction.ts).
ALTER TABLE "invoices" ADD COLUMN "invoice_type" text DEFAULT 'standard' NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_invoice_type" CHECK ("invoice_type" in ('standard', 'deposit'));
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "deposits" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "amount_deducted" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "deducted_by" text;
