CREATE TABLE "document_emails" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"id" text NOT NULL,
	"document_kind" text NOT NULL,
	"document_id" text NOT NULL,
	"message_id" text NOT NULL,
	"from" text NOT NULL,
	"reply_to" text,
	"to" text,
	"language" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"attachment" jsonb,
	"event" jsonb,
	"status" text NOT NULL,
	"smtp_response" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"locked_until" timestamp (3) with time zone,
	"lock_token" text,
	"created" timestamp (3) with time zone NOT NULL,
	"sent_at" timestamp (3) with time zone,
	CONSTRAINT "document_emails_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE INDEX "document_emails_by_document" ON "document_emails" USING btree ("company_id","livemode","document_id","id");--> statement-breakpoint
CREATE INDEX "document_emails_due" ON "document_emails" USING btree ("next_attempt_at") WHERE status in ('pending', 'sending');--> statement-breakpoint
select facteur_fence_tenant_table('document_emails');
