-- The outbox of the exchange with the platforms (src/platform/schema.ts): one row per flow sent.
CREATE TABLE "platform_flows" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"kind" text NOT NULL,
	"owner_id" text NOT NULL,
	"tracking_id" text NOT NULL,
	"establishment_id" text,
	"file" bytea NOT NULL,
	"name" text NOT NULL,
	"syntax" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"flow_id" text,
	"last_error" text,
	"created" timestamp (3) with time zone NOT NULL,
	"updated" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "platform_flows_company_id_livemode_tracking_id_pk" PRIMARY KEY("company_id","livemode","tracking_id")
);
--> statement-breakpoint
CREATE INDEX "platform_flows_owner" ON "platform_flows" USING btree ("company_id","livemode","owner_id");--> statement-breakpoint
CREATE INDEX "platform_flows_due" ON "platform_flows" USING btree ("next_attempt_at") WHERE state = 'pending';--> statement-breakpoint
select facteur_fence_tenant_table('platform_flows');
