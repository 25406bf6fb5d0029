CREATE TABLE "tax_profiles" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"valid_from" text NOT NULL,
	"valid_to" text,
	"establishment" jsonb NOT NULL,
	"vat_number" text,
	"regime" text,
	"vat_on_debits" boolean,
	"oss_registered" boolean,
	"ereporting_periodicity" text,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "tax_profiles_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "tax_decisions" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"status" text NOT NULL,
	"date" text NOT NULL,
	"customer_id" text,
	"retry_of" text,
	"expires_at" timestamp (3) with time zone,
	"input" jsonb NOT NULL,
	"body" jsonb NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "tax_decisions_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "eu_threshold_entries" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"ledger_id" text NOT NULL,
	"kind" text NOT NULL,
	"reference" text,
	"fingerprint" text,
	"distance_sales" bigint NOT NULL,
	"electronic_services" bigint NOT NULL,
	"corrected_distance_sales" bigint NOT NULL,
	"corrected_electronic_services" bigint NOT NULL,
	"covered_until" text,
	"operation_date" text,
	"state" text,
	"expires_at" timestamp (3) with time zone,
	"decision_id" text,
	"target_entry_id" text,
	"reason" text,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "eu_threshold_entries_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "eu_threshold_ledgers" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"year" integer NOT NULL,
	"status" text NOT NULL,
	"previous_distance_sales" bigint NOT NULL,
	"previous_electronic_services" bigint NOT NULL,
	"counted_distance_sales" bigint NOT NULL,
	"counted_electronic_services" bigint NOT NULL,
	"covered_until" text,
	"last_entry_id" text,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "eu_threshold_ledgers_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE INDEX "tax_profiles_list" ON "tax_profiles" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE INDEX "tax_decisions_list" ON "tax_decisions" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_decisions_retry_of" ON "tax_decisions" USING btree ("company_id","retry_of") WHERE retry_of is not null;--> statement-breakpoint
CREATE INDEX "eu_threshold_entries_ledger" ON "eu_threshold_entries" USING btree ("company_id","ledger_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "eu_threshold_entries_reference" ON "eu_threshold_entries" USING btree ("company_id","ledger_id","reference") WHERE reference is not null;--> statement-breakpoint
CREATE INDEX "eu_threshold_entries_decision" ON "eu_threshold_entries" USING btree ("company_id","decision_id") WHERE decision_id is not null;--> statement-breakpoint
CREATE INDEX "eu_threshold_entries_reserved" ON "eu_threshold_entries" USING btree ("company_id","ledger_id") WHERE state = 'reserved';--> statement-breakpoint
CREATE UNIQUE INDEX "eu_threshold_ledgers_year" ON "eu_threshold_ledgers" USING btree ("company_id","livemode","year");