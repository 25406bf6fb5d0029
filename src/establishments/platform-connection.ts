import type { Deps } from '../deps.js';
import { refuse, ApiError } from '../kernel/errors.js';
import { encryptionKeyOf, sealSecret } from '../kernel/sealed-secret.js';
import { AfnorConnector } from '../platform/afnor-connector.js';
import type { PlatformConnection, PlatformFailure } from '../platform/connector.js';
import type { EstablishmentRow } from './store.js';

/**
 * An establishment's connection to its approved platform, as the API takes and shows it. A new
 * connection is tried before it is stored: the platform's token endpoint must accept the
 * credentials and its directory must know the establishment's SIRET (`siret_not_found`), so a
 * typo is told at once rather than at the first deposit.
 */

export interface ConnectionInput {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  tokenUrl?: string | null | undefined;
}

export interface ShownConnection {
  baseUrl: string;
  clientId: string;
  /** Null: `{baseUrl}/auth-service/{clientId}/token`. */
  tokenUrl: string | null;
  /** The secret is stored sealed and never shown; this says one is set. */
  clientSecretSet: true;
  connectedAt: string;
}

export function shownConnection(row: EstablishmentRow): ShownConnection | null {
  if (!row.platformBaseUrl || !row.platformClientId || !row.platformConnectedAt) return null;
  return {
    baseUrl: row.platformBaseUrl,
    clientId: row.platformClientId,
    tokenUrl: row.platformTokenUrl,
    clientSecretSet: true,
    connectedAt: row.platformConnectedAt.toISOString(),
  };
}

function httpsUrl(value: string, param: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw refuse('invalid_field_value', `\`${param}\` is not a URL.`, { param });
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.search || url.hash)
    throw refuse(
      'invalid_field_value',
      `\`${param}\` must be an https:// address without credentials, query or fragment.`,
      { param },
    );
  return url.toString().replace(/\/+$/, '');
}

/** Why the platform refused the trial, as the API says it. */
function trialRefusal(failure: PlatformFailure): ApiError {
  if (failure.category === 'platform_auth')
    return refuse(
      'invalid_field_value',
      `The platform refused these credentials (${failure.httpStatus ?? failure.paErrorCode}: ${failure.message}): check the client id and secret.`,
      { param: 'platform.clientSecret' },
    );
  if (failure.category === 'platform_unavailable')
    return new ApiError('pa_unavailable', {
      param: 'platform.baseUrl',
      hint: `${failure.message}. Nothing was stored; try again.`,
    });
  return refuse(
    'invalid_field_value',
    `The platform at this address did not answer as an AFNOR XP Z12-013 directory (${failure.httpStatus ?? failure.paErrorCode}: ${failure.message}).`,
    { param: 'platform.baseUrl' },
  );
}

/** The connection, checked and tried against the platform (credentials and the SIRET in its directory). */
export async function verifiedConnection(siret: string, input: ConnectionInput): Promise<PlatformConnection> {
  const clientId = input.clientId.trim();
  if (!clientId) throw refuse('invalid_field_value', '`platform.clientId` is empty.', { param: 'platform.clientId' });
  if (!input.clientSecret)
    throw refuse('invalid_field_value', '`platform.clientSecret` is empty.', { param: 'platform.clientSecret' });
  const connection: PlatformConnection = {
    baseUrl: httpsUrl(input.baseUrl, 'platform.baseUrl'),
    clientId,
    clientSecret: input.clientSecret,
    ...(input.tokenUrl ? { tokenUrl: httpsUrl(input.tokenUrl, 'platform.tokenUrl') } : {}),
  };
  const trial = new AfnorConnector({ connection, connectTimeoutMs: 5_000, requestTimeoutMs: 10_000 });
  try {
    const facility = await trial.lookupFacility(siret, { retryBudgetMs: 0 });
    if (!facility.ok) throw trialRefusal(facility);
    if (facility.value === null)
      throw new ApiError('siret_not_found', {
        param: 'siret',
        values: { siret },
        hint: "The platform's directory does not know this establishment: register it with the platform first.",
      });
  } finally {
    await trial.close();
  }
  return connection;
}

/** The columns that store a verified connection, its secret sealed. */
export function connectionColumns(
  deps: Pick<Deps, 'config'>,
  connection: PlatformConnection,
  now: Date,
): Partial<EstablishmentRow> {
  return {
    platformBaseUrl: connection.baseUrl,
    platformClientId: connection.clientId,
    platformClientSecret: sealSecret(encryptionKeyOf(deps.config), connection.clientSecret),
    platformTokenUrl: connection.tokenUrl ?? null,
    platformConnectedAt: now,
  };
}
