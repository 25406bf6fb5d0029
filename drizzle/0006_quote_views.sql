ALTER TABLE "quotes" ADD COLUMN "view_token" text;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "viewed_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_view_token" ON "quotes" USING btree ("view_token") WHERE view_token is not null;