ALTER TABLE "establishments" ADD COLUMN "platform_base_url" text;--> statement-breakpoint
ALTER TABLE "establishments" ADD COLUMN "platform_client_id" text;--> statement-breakpoint
ALTER TABLE "establishments" ADD COLUMN "platform_client_secret" text;--> statement-breakpoint
ALTER TABLE "establishments" ADD COLUMN "platform_token_url" text;--> statement-breakpoint
ALTER TABLE "establishments" ADD COLUMN "platform_connected_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "establishments" ADD COLUMN "deposit_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "establishments" ADD COLUMN "ereporting_enabled" boolean DEFAULT false NOT NULL;