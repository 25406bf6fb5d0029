CREATE TABLE "customers" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"siren" text,
	"siret" text,
	"vat_number" text,
	"electronic_address" text,
	"routing_code" text,
	"address" jsonb,
	"delivery_address" jsonb,
	"registry_non_disclosure" text[] NOT NULL,
	"metadata" jsonb NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "customers_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"unit_price" text NOT NULL,
	"unit" text NOT NULL,
	"nature" text NOT NULL,
	"vat_category" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "products_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"input" jsonb NOT NULL,
	"progress" jsonb NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"request" jsonb NOT NULL,
	"attempts" integer NOT NULL,
	"run_after" timestamp (3) with time zone NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	"completed_at" timestamp (3) with time zone,
	CONSTRAINT "jobs_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE INDEX "customers_list" ON "customers" USING btree ("company_id","livemode","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "customers_by_email" ON "customers" USING btree ("company_id","livemode",lower("email"),"id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "customers_by_siren" ON "customers" USING btree ("company_id","livemode","siren","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "products_list" ON "products" USING btree ("company_id","livemode","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "jobs_due" ON "jobs" USING btree ("run_after") WHERE status in ('queued', 'running');