-- A received file's validation errors are kept up to a cap (the first ones); the count says how many there were.
ALTER TABLE "received_invoices" ADD COLUMN "validation_error_count" integer;--> statement-breakpoint
UPDATE "received_invoices" SET "validation_error_count" = jsonb_array_length("validation_errors");--> statement-breakpoint
ALTER TABLE "received_invoices" ALTER COLUMN "validation_error_count" SET NOT NULL;
