-- Webhook signing secrets are sealed at rest (kernel/sealed-secret.ts). SQL cannot encrypt with the
-- installation's key: the start that follows this migration seals the rows written in clear
-- (db/sealed-columns.ts, `sealing the stored secrets`). What reads show of a secret (`whsec_…` and its
-- last four characters) is kept beside it, so listing or exporting endpoints opens no secret.
ALTER TABLE "webhook_endpoints" ADD COLUMN "secret_hint" text;--> statement-breakpoint
UPDATE "webhook_endpoints" SET "secret_hint" = right("secret", 4);--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "secret_hint" SET NOT NULL;
