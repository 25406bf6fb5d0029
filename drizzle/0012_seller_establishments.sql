CREATE TABLE "establishments" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"siret" text NOT NULL,
	"name" text,
	"address" jsonb NOT NULL,
	"electronic_address" text,
	"is_default" boolean NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "establishments_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "legal_name" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "trade_name" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "legal_form" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "share_capital" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "registration" jsonb;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "vat_number" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "iban" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "bic" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "contact" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "seller" jsonb;--> statement-breakpoint
CREATE INDEX "establishments_list" ON "establishments" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE UNIQUE INDEX "establishments_siret" ON "establishments" USING btree ("company_id","livemode","siret");--> statement-breakpoint
CREATE UNIQUE INDEX "establishments_default" ON "establishments" USING btree ("company_id","livemode") WHERE is_default;--> statement-breakpoint
-- Tenant rows: the RLS fence of 0009.
select facteur_fence_tenant_table('establishments');
