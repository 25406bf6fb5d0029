import pg from 'pg';

/**
 * The role the service's pools work as (migration 0024): no superuser, no BYPASSRLS, so that
 * row-level security holds for every query the service runs. A superuser or the tables' owner is
 * used for migrations only.
 *
 * Two ways to be it: log in as it (the embedded server, whose cluster the service owns; or an
 * operator's own login granted the role, DATABASE_URL beside FACTEUR_MIGRATION_DATABASE_URL), or
 * take it at connect time on a single superuser URL (`-c role=…`). The second is weaker: a
 * statement that runs `SET ROLE` or `RESET SESSION AUTHORIZATION` on such a connection leaves it.
 */
export const serviceRole = 'facteur_service';

/** The role a connection works as, and the login behind it. */
export interface EffectiveRole {
  role: string;
  superuser: boolean;
  bypassesRls: boolean;
  /** The role owns (or inherits the owner of) a fenced table: row-level security skips its owner. */
  ownsFencedTable: boolean;
  login: string;
  /** The login, were a statement to go back to it, would see through the fence. */
  loginBypassesRls: boolean;
}

export async function effectiveRole(pool: pg.Pool): Promise<EffectiveRole> {
  const { rows } = await pool.query<EffectiveRole>(`
    with fenced as (select relowner from pg_class where relrowsecurity and not relforcerowsecurity)
    select r.rolname as role, r.rolsuper as superuser, r.rolbypassrls as "bypassesRls",
      exists (select 1 from fenced where pg_has_role(r.oid, fenced.relowner, 'USAGE')) as "ownsFencedTable",
      l.rolname as login,
      l.rolsuper or l.rolbypassrls or exists (select 1 from fenced where pg_has_role(l.oid, fenced.relowner, 'USAGE'))
        as "loginBypassesRls"
    from pg_roles r, pg_roles l where r.rolname = current_user and l.rolname = session_user`);
  return rows[0]!;
}

/**
 * Refuses a pool that would bypass row-level security (a superuser, a BYPASSRLS role or a table's
 * owner: the fence would be no fence); says so when its login is one that a statement could go
 * back to (`DATABASE_URL` alone, a superuser or the owner, taking the service's role).
 */
export async function checkServiceRole(pool: pg.Pool, warn: (message: string) => void): Promise<EffectiveRole> {
  const role = await effectiveRole(pool);
  if (role.superuser || role.bypassesRls || role.ownsFencedTable)
    throw new Error(
      `the service's database role ${role.role} is a superuser, has BYPASSRLS or owns the tables: row-level security would not apply to it`,
    );
  if (role.loginBypassesRls)
    warn(
      `the service works as ${role.role}, taken on each connection of ${role.login}, a superuser or the tables' owner: ` +
        'a statement could go back to that login and bypass row-level security. Give DATABASE_URL a login of its own ' +
        'without SUPERUSER or BYPASSRLS, and FACTEUR_MIGRATION_DATABASE_URL the owner that runs the migrations.',
    );
  return role;
}

/** Lets `login` (DATABASE_URL's user, when migrations run as another) take the service's role. */
export async function grantServiceRole(admin: pg.Pool, login: string): Promise<void> {
  const { rows } = await admin.query<{ member: boolean | null }>(
    `select pg_has_role(r.oid, $2, 'MEMBER') as member from pg_roles r where r.rolname = $1`,
    [login, serviceRole],
  );
  if (rows.length === 0) throw new Error(`the user of DATABASE_URL, ${login}, does not exist on the server`);
  if (rows[0]!.member) return;
  await admin.query(`grant ${serviceRole} to ${pg.escapeIdentifier(login)}`);
}
