-- VIES (issue 38): every consultation of the EU's VAT number service, kept per company (the
-- company's VAT number is the requester, so a consultation number is the company's proof), and
-- on each customer the state of its number's check (src/vies/schema.ts, src/customers/schema.ts).
CREATE TABLE "vies_checks" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"vat_number" text NOT NULL,
	"outcome" text NOT NULL,
	"request_identifier" text,
	"request_date" text,
	"trader_name" text,
	"trader_address" text,
	"failure" text,
	"checked_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "vies_checks_latest" ON "vies_checks" USING btree ("company_id","livemode","vat_number","checked_at");--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "vat_validation" jsonb;--> statement-breakpoint
select facteur_fence_tenant_table('vies_checks');
