-- A declaration's deposit is a flow of the platform's outbox (platform_flows, kind `ereporting.declaration`), whose lease says
-- whether a submission is under way: the declaration's own lease goes. A declaration claimed before the upgrade keeps its
-- tracking id, so its next claim searches the platform for it before depositing anything.
ALTER TABLE "ereporting_declarations" DROP COLUMN "lock_token";--> statement-breakpoint
ALTER TABLE "ereporting_declarations" DROP COLUMN "locked_until";
