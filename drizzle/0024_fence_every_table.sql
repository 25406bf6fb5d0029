-- The second fence around every table that holds a tenant's or a user's data, not only those with
-- company_id and livemode (0009), and the service's own role.
--
-- facteur_service is what the service's pools work as: no superuser, no BYPASSRLS, so row-level
-- security holds for every one of its queries. It inherits facteur_worker (the cross-tenant
-- lookups done outside a tenant's transaction: an API key by its hash, a dashboard session) and may
-- take facteur_tenant for a tenant's transaction. Migrations run as the owner of the tables, never
-- as this role (src/db/service-role.ts).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facteur_service') THEN
    CREATE ROLE facteur_service NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  -- Another database of the same cluster created it at the same moment.
  NULL;
END $$;--> statement-breakpoint
DO $$
BEGIN
  -- Only a superuser may change these attributes, and only a superuser could have given them.
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facteur_service' AND (rolsuper OR rolbypassrls)) THEN
    ALTER ROLE facteur_service NOSUPERUSER NOBYPASSRLS;
  END IF;
  IF NOT pg_has_role('facteur_service', 'facteur_tenant', 'MEMBER') THEN
    GRANT facteur_tenant TO facteur_service;
  END IF;
  IF NOT pg_has_role('facteur_service', 'facteur_worker', 'MEMBER') THEN
    GRANT facteur_worker TO facteur_service;
  END IF;
  -- The user migrating with DATABASE_URL alone then takes the role on each connection of the service.
  IF NOT pg_has_role(current_user, 'facteur_service', 'MEMBER') THEN
    EXECUTE format('GRANT facteur_service TO %I', current_user);
  END IF;
END $$;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO facteur_service;--> statement-breakpoint
-- The fence of a tenant table without livemode: its rows belong to the company in both
-- environments (the company itself, its subscription, its users).
CREATE OR REPLACE FUNCTION facteur_fence_company_table(target regclass, company_column name) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', target);
  EXECUTE format('DROP POLICY IF EXISTS tenant_scope ON %s', target);
  EXECUTE format('DROP POLICY IF EXISTS worker_claims ON %s', target);
  -- An unset scope is the empty string or null: it matches no row.
  EXECUTE format($p$CREATE POLICY tenant_scope ON %s TO facteur_tenant
    USING (%I = current_setting('facteur.company_id', true))
    WITH CHECK (%I = current_setting('facteur.company_id', true))$p$, target, company_column, company_column);
  EXECUTE format('CREATE POLICY worker_claims ON %s TO facteur_worker USING (true) WITH CHECK (true)', target);
END $$;--> statement-breakpoint
-- The fence of a table no tenant's transaction ever reads (sign-in state, sessions, password
-- links): no grant to the tenant role, and row-level security with the workers' policy alone, so
-- a grant given by mistake later still shows no row.
CREATE OR REPLACE FUNCTION facteur_fence_private_table(target regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('REVOKE ALL ON %s FROM facteur_tenant', target);
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', target);
  EXECUTE format('DROP POLICY IF EXISTS tenant_scope ON %s', target);
  EXECUTE format('DROP POLICY IF EXISTS worker_claims ON %s', target);
  EXECUTE format('CREATE POLICY worker_claims ON %s TO facteur_worker USING (true) WITH CHECK (true)', target);
END $$;--> statement-breakpoint
SELECT facteur_fence_company_table('public.companies', 'id');--> statement-breakpoint
SELECT facteur_fence_company_table('public.subscriptions', 'company_id');--> statement-breakpoint
SELECT facteur_fence_company_table('public.users', 'company_id');--> statement-breakpoint
-- A tenant's transaction reads its users for the data-protection export, never their password:
-- the tenant role reads these columns only, and whether a password is set without the hash.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "password_set" boolean GENERATED ALWAYS AS ("password_hash" IS NOT NULL) STORED;--> statement-breakpoint
REVOKE ALL ON "users" FROM facteur_tenant;--> statement-breakpoint
GRANT SELECT ("id", "company_id", "email", "password_set", "password_changed_at", "created") ON "users" TO facteur_tenant;--> statement-breakpoint
SELECT facteur_fence_private_table('public.dashboard_sessions');--> statement-breakpoint
SELECT facteur_fence_private_table('public.password_links');--> statement-breakpoint
-- Failed sign-ins per address and per account (an account's e-mail among the subjects).
SELECT facteur_fence_private_table('public.auth_failures');--> statement-breakpoint
DO $$
BEGIN
  -- The dashboard's former sign-in throttle, where it still exists.
  IF to_regclass('public.login_throttle') IS NOT NULL THEN
    PERFORM facteur_fence_private_table('public.login_throttle');
  END IF;
  IF to_regclass('public.login_challenges') IS NOT NULL THEN
    PERFORM facteur_fence_private_table('public.login_challenges');
  END IF;
END $$;
