ALTER TABLE "card_payment_events" ADD COLUMN "refund_id" text;--> statement-breakpoint
ALTER TABLE "card_payment_providers" ADD COLUMN "last_exchange_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "card_payment_providers" ADD COLUMN "last_failure" text;--> statement-breakpoint
CREATE INDEX "refunds_by_invoice" ON "refunds" USING btree ("company_id","livemode","invoice_id");--> statement-breakpoint
CREATE INDEX "payments_by_provider_reference" ON "payments" USING btree ("company_id","livemode","reference") WHERE recorded_by <> 'api';
