-- Allowances and charges (issue 37): a document's own allowances and charges (EN 16931 BG-20 /
-- BG-21), as the draft states them (amount, reason, reason code); the tax decision splits them over
-- the VAT groups. Line allowances and charges live in each line of `lines` (BG-27 / BG-28).
ALTER TABLE "invoices" ADD COLUMN "allowances" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "charges" jsonb DEFAULT '[]'::jsonb NOT NULL;
