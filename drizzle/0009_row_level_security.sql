-- Row-level security, the second fence behind every query's own scope: a transaction of a
-- tenant (company and environment) runs as facteur_tenant and sees only that tenant's rows; the
-- workers' cross-tenant claims run as facteur_worker, which may see every tenant. Both roles are
-- taken per transaction (SET LOCAL ROLE) by the service; neither logs in.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facteur_tenant') THEN
    CREATE ROLE facteur_tenant NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'facteur_worker') THEN
    CREATE ROLE facteur_worker NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  -- Another database of the same cluster created them at the same moment.
  NULL;
END $$;--> statement-breakpoint
-- The user the service connects as must be able to take both roles.
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'facteur_tenant', 'MEMBER') THEN
    EXECUTE format('GRANT facteur_tenant TO %I', current_user);
  END IF;
  IF NOT pg_has_role(current_user, 'facteur_worker', 'MEMBER') THEN
    EXECUTE format('GRANT facteur_worker TO %I', current_user);
  END IF;
END $$;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO facteur_tenant, facteur_worker;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO facteur_tenant, facteur_worker;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO facteur_tenant, facteur_worker;--> statement-breakpoint
-- The fence of one tenant table; every migration that creates one calls it.
CREATE OR REPLACE FUNCTION facteur_fence_tenant_table(target regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', target);
  EXECUTE format('DROP POLICY IF EXISTS tenant_scope ON %s', target);
  EXECUTE format('DROP POLICY IF EXISTS worker_claims ON %s', target);
  -- An unset scope is the empty string or null: it matches no row.
  EXECUTE format($p$CREATE POLICY tenant_scope ON %s TO facteur_tenant
    USING (company_id = current_setting('facteur.company_id', true)
      AND livemode = nullif(current_setting('facteur.livemode', true), '')::boolean)
    WITH CHECK (company_id = current_setting('facteur.company_id', true)
      AND livemode = nullif(current_setting('facteur.livemode', true), '')::boolean)$p$, target);
  EXECUTE format('CREATE POLICY worker_claims ON %s TO facteur_worker USING (true) WITH CHECK (true)', target);
END $$;--> statement-breakpoint
-- Every table whose rows carry a company and an environment is a tenant table.
DO $$
DECLARE
  tenant record;
BEGIN
  FOR tenant IN
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.columns l ON l.table_schema = c.table_schema AND l.table_name = c.table_name AND l.column_name = 'livemode'
    WHERE c.table_schema = 'public' AND c.column_name = 'company_id'
  LOOP
    PERFORM facteur_fence_tenant_table(format('public.%I', tenant.table_name)::regclass);
  END LOOP;
END $$;
