ALTER TABLE "ereporting_declarations" ADD COLUMN "transmission_block" text;--> statement-breakpoint
-- Until now no live establishment could transmit: the live reserved declarations were waiting on it.
UPDATE "ereporting_declarations" SET "transmission_block" = 'ereporting_not_enabled' WHERE "livemode" AND "state" = 'reserved';
