-- Company directory (issue 38): every live look-up of a SIRET or a SIREN (Sirene API, else the connected
-- platform's Directory Service), kept per company; the latest fresh one is the cache
-- (src/directory/schema.ts, freshness in src/directory/service.ts); on each customer, what the
-- directory said of its SIRET (else SIREN) (src/customers/schema.ts).
CREATE TABLE "directory_checks" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"identifier" text NOT NULL,
	"source" text NOT NULL,
	"outcome" text NOT NULL,
	"closed" boolean NOT NULL,
	"name_hidden" boolean NOT NULL,
	"address_hidden" boolean NOT NULL,
	"legal_name" text,
	"failure" text,
	"checked_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "directory_checks_latest" ON "directory_checks" USING btree ("company_id","livemode","identifier","checked_at");--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "directory_verification" text;--> statement-breakpoint
select facteur_fence_tenant_table('directory_checks');
