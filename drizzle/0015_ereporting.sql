CREATE TABLE "ereporting_declarations" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"establishment" text,
	"flow" text NOT NULL,
	"period" text NOT NULL,
	"period_start" text NOT NULL,
	"period_end" text NOT NULL,
	"state" text NOT NULL,
	"attempt" integer NOT NULL,
	"previous_attempt_id" text,
	"superseded_by_id" text,
	"currency" text NOT NULL,
	"lines" jsonb,
	"operation_count" integer NOT NULL,
	"taxable_amount" bigint NOT NULL,
	"tax_amount" bigint NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"tracking_id" text,
	"flow_id" text,
	"pa_rejection_code" text,
	"pa_rejection_reason" text,
	"lock_token" text,
	"locked_until" timestamp (3) with time zone,
	"submitted_at" timestamp (3) with time zone,
	"accepted_at" timestamp (3) with time zone,
	"rejected_at" timestamp (3) with time zone,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ereporting_declarations_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "ereporting_event_keys" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"declaration_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"type" text NOT NULL,
	"event_id" text,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ereporting_event_keys_company_id_livemode_declaration_id_attempt_type_pk" PRIMARY KEY("company_id","livemode","declaration_id","attempt","type")
);
--> statement-breakpoint
CREATE TABLE "ereporting_operations" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" text NOT NULL,
	"flow" text NOT NULL,
	"declaration_id" text NOT NULL,
	"date" text NOT NULL,
	"number" text,
	"taxable_amount" bigint NOT NULL,
	"tax_amount" bigint NOT NULL,
	"created" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ereporting_operations_company_id_livemode_source_kind_source_id_flow_pk" PRIMARY KEY("company_id","livemode","source_kind","source_id","flow")
);
--> statement-breakpoint
CREATE INDEX "ereporting_declarations_list" ON "ereporting_declarations" USING btree ("company_id","livemode","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ereporting_declarations_key" ON "ereporting_declarations" USING btree ("company_id","livemode",coalesce("establishment", ''),"flow","period","attempt");--> statement-breakpoint
CREATE INDEX "ereporting_declarations_due" ON "ereporting_declarations" USING btree ("due_at") WHERE state = 'reserved';--> statement-breakpoint
CREATE INDEX "ereporting_operations_by_declaration" ON "ereporting_operations" USING btree ("company_id","livemode","declaration_id");--> statement-breakpoint
select facteur_fence_tenant_table('ereporting_declarations');--> statement-breakpoint
select facteur_fence_tenant_table('ereporting_operations');--> statement-breakpoint
select facteur_fence_tenant_table('ereporting_event_keys');