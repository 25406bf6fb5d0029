-- A sandbox clock only moves forward (advanced, or reset to real time): no offset below zero was ever
-- written; the update only keeps the constraint from failing on a row that would break that rule.
UPDATE "companies" SET "sandbox_clock_offset_ms" = 0 WHERE "sandbox_clock_offset_ms" < 0;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_sandbox_clock_forward" CHECK ("companies"."sandbox_clock_offset_ms" >= 0);