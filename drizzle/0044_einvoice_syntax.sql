-- The syntax a platform deposit carries: the buyer's (a customer's; null: none stated) or else its
-- establishment's default (the Factur-X unless set).
ALTER TABLE "customers" ADD COLUMN "einvoice_syntax" text;--> statement-breakpoint
ALTER TABLE "establishments" ADD COLUMN "einvoice_syntax" text DEFAULT 'cii' NOT NULL;
