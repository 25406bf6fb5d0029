-- The dashboard's sign-in now locks out through the brute-force store of the API keys
-- (auth_failures, per address and per account); the arithmetic challenge and its throttle are gone.
DROP TABLE IF EXISTS "login_challenges";--> statement-breakpoint
DROP TABLE IF EXISTS "login_throttle";
