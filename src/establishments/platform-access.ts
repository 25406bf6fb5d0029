import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { encryptionKeyOf, openSecret } from '../kernel/sealed-secret.js';
import { sealContext, sealedColumns } from '../db/sealed-columns.js';
import { connectionKeyOf, connectorOf } from '../platform/connections.js';
import type { PlatformConnection, PlatformConnector } from '../platform/connector.js';
import { platformAddressPolicy, type PlatformDeps } from './platform-connection.js';
import { findBySiret, findDefault, findEstablishment, type EstablishmentRow } from './store.js';

/**
 * The ONE answer to "which platform does this establishment talk to": its own connection (live,
 * or a test establishment pointed at a `facteur pa-simulator`), the sandbox (a test establishment
 * without one: each capability plays its platform in its own way), or none. Deposits, e-reporting
 * and received invoices all ask here; the connectors themselves are built by `platform/connections.ts`.
 */

export type PlatformAccess =
  | {
      state: 'connected';
      establishmentId: string;
      siret: string;
      depositEnabled: boolean;
      ereportingEnabled: boolean;
      connector: PlatformConnector;
      /** Names this connection (base URL, client, a digest of the secret): the key of its cursors. */
      connectionKey: string;
    }
  /** A test establishment without a connection: the sandbox plays the platform. */
  | { state: 'sandbox'; establishmentId: string | null; siret: string | null }
  /** A live establishment without a connection (or no establishment at all). */
  | { state: 'not_configured'; establishmentId: string | null; siret: string | null };

/** Which establishment: by id, by SIRET (a document's frozen seller), else the scope's default. */
export type EstablishmentRef = { establishmentId: string } | { siret: string | null };

/** What an establishment says of its platform: all `platformAccess` reads of it. */
export type PlatformFields = Pick<
  EstablishmentRow,
  | 'id'
  | 'siret'
  | 'platformBaseUrl'
  | 'platformClientId'
  | 'platformClientSecret'
  | 'platformTokenUrl'
  | 'depositEnabled'
  | 'ereportingEnabled'
>;

/** Opened secrets by their row and sealed form: a worker opens the same one for every deposit. */
const openedSecrets = new Map<string, string>();

function opened(deps: Pick<Deps, 'config'>, context: string, sealed: string): string {
  // Keyed by the row too: a sealed value copied to another row must fail to open there, not hit the cache.
  const cacheKey = `${context}|${sealed}`;
  let secret = openedSecrets.get(cacheKey);
  if (secret === undefined) {
    secret = openSecret(encryptionKeyOf(deps.config), sealed, context);
    if (openedSecrets.size >= 1000) openedSecrets.clear();
    openedSecrets.set(cacheKey, secret);
  }
  return secret;
}

/** The connection stored on an establishment of `scope`, its secret opened; null when it has none. */
export function connectionOf(deps: Pick<Deps, 'config'>, scope: Scope, row: PlatformFields): PlatformConnection | null {
  if (!row.platformBaseUrl || !row.platformClientId || !row.platformClientSecret) return null;
  const context = sealContext(sealedColumns.platformClientSecret, [scope.companyId, row.id]);
  return {
    baseUrl: row.platformBaseUrl,
    clientId: row.platformClientId,
    clientSecret: opened(deps, context, row.platformClientSecret),
    ...(row.platformTokenUrl ? { tokenUrl: row.platformTokenUrl } : {}),
  };
}

export { connectionKeyOf };

/** The process's connector of a connection, under the operator's address rule (platform/connections.ts). */
export function connectorFor(deps: PlatformDeps, connection: PlatformConnection): PlatformConnector {
  return connectorOf(connection, platformAddressPolicy(deps));
}

async function establishmentOf(db: Executor, scope: Scope, ref: EstablishmentRef) {
  if ('establishmentId' in ref) return findEstablishment(db, scope, ref.establishmentId);
  return (ref.siret !== null ? await findBySiret(db, scope, ref.siret) : undefined) ?? (await findDefault(db, scope));
}

export async function platformAccess(
  deps: PlatformDeps,
  db: Executor,
  scope: Scope,
  ref: EstablishmentRef,
): Promise<PlatformAccess> {
  return accessOf(deps, scope, (await establishmentOf(db, scope, ref)) ?? null);
}

/**
 * An establishment's platform fields as one jsonb value (null: no such establishment), for a
 * caller to read in its own statement (`on`: SQL naming the company, mode and establishment,
 * values or a row's columns): the deposit worker's claim reads them with the documents it
 * deposits, in one round trip. `accessOf` makes them the same answer as `platformAccess`.
 */
export function platformFieldsSql(on: { companyId: SQL; livemode: SQL; establishmentId: SQL }): SQL {
  return sql`(select jsonb_build_object('id', e.id, 'siret', e.siret, 'platformBaseUrl', e.platform_base_url,
      'platformClientId', e.platform_client_id, 'platformClientSecret', e.platform_client_secret,
      'platformTokenUrl', e.platform_token_url, 'depositEnabled', e.deposit_enabled,
      'ereportingEnabled', e.ereporting_enabled)
    from establishments e where e.company_id = ${on.companyId} and e.livemode = ${on.livemode} and e.id = ${on.establishmentId})`;
}

/** The access an establishment's platform fields give (null: no establishment). */
export function accessOf(deps: PlatformDeps, scope: Scope, row: PlatformFields | null): PlatformAccess {
  const connection = row ? connectionOf(deps, scope, row) : null;
  if (!row || !connection) {
    const where = { establishmentId: row?.id ?? null, siret: row?.siret ?? null };
    return scope.livemode ? { state: 'not_configured', ...where } : { state: 'sandbox', ...where };
  }
  return {
    state: 'connected',
    establishmentId: row.id,
    siret: row.siret,
    depositEnabled: row.depositEnabled,
    ereportingEnabled: row.ereportingEnabled,
    connector: connectorFor(deps, connection),
    connectionKey: connectionKeyOf(connection),
  };
}

/**
 * Whether an establishment's e-reporting leaves automatically: its own connection with
 * `ereportingEnabled`, or the sandbox's platform for a test establishment without one. Read from
 * the stored switches alone (no secret opened): the pass asks it for every reserved declaration.
 */
export async function ereportingTransmits(db: Executor, scope: Scope, siret: string | null): Promise<boolean> {
  const row = await establishmentOf(db, scope, { siret });
  if (row?.platformBaseUrl) return row.ereportingEnabled;
  return !scope.livemode;
}

/**
 * The connector that carries a flow of an establishment (the outbox's): its own connection, the
 * sandbox's platform for a test one without, or null for a live one without.
 */
export async function flowConnector(
  deps: PlatformDeps & Pick<Deps, 'db' | 'sandboxPlatform'>,
  scope: Scope,
  ref: EstablishmentRef,
): Promise<PlatformConnector | null> {
  const access = await platformAccess(deps, deps.db, scope, ref);
  if (access.state === 'connected') return access.connector;
  return access.state === 'sandbox' ? deps.sandboxPlatform.connectorOf(scope.companyId) : null;
}
