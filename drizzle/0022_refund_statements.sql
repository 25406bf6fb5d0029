ALTER TABLE "refunds" ADD COLUMN "fr212" jsonb;--> statement-breakpoint
CREATE INDEX "refunds_statements_open" ON "refunds" USING btree ("id") WHERE "refunds"."fr212" is not null and "refunds"."fr212"->>'sentAt' is null;--> statement-breakpoint
CREATE INDEX "payments_statements_open" ON "payments" USING btree ("id") WHERE "payments"."fr212" is not null and "payments"."fr212"->>'sentAt' is null;