import type { Deps } from '../deps.js';
import { refuse, ApiError } from '../kernel/errors.js';
import { encryptionKeyOf, sealSecret } from '../kernel/sealed-secret.js';
import { sealContext, sealedColumns } from '../db/sealed-columns.js';
import { trialConnector } from '../platform/connections.js';
import { hostRefusal, systemResolveHost, type OutboundPolicy } from '../kernel/outbound-address.js';
import { isNotAnAfnorAnswer, type PlatformConnection, type PlatformFailure } from '../platform/connector.js';
import type { EstablishmentRow } from './store.js';

/**
 * An establishment's connection to its approved platform, as the API takes and shows it. A new
 * connection is tried before it is stored: the platform's token endpoint must accept the
 * credentials and its directory must know the establishment's SIRET (`siret_not_found`), so a
 * typo is told at once rather than at the first deposit.
 *
 * The addresses are a user's word: each must be https and resolve to public addresses only
 * (`FACTEUR_ALLOW_PRIVATE_PLATFORMS` opens private ones for a simulator on the same host), the
 * trial dials the address checked, and a refusal names a category, never what answered there.
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

/**
 * What reaching an establishment's platform takes: the configuration, and the resolver of user-given
 * hosts (the system's when a caller's deps do not name it: the deposit, poll and e-reporting
 * passes carry it at run time without naming it in their types).
 */
export type PlatformDeps = Pick<Deps, 'config'> & Partial<Pick<Deps, 'resolveHost'>>;

/** The address rule of an establishment's platform, under the operator's setting. */
export function platformAddressPolicy(deps: PlatformDeps): OutboundPolicy {
  return { resolve: deps.resolveHost ?? systemResolveHost, allowPrivate: deps.config.allowPrivatePlatforms };
}

async function publicHttpsUrl(value: string, param: string, policy: OutboundPolicy): Promise<string> {
  const checked = httpsUrl(value, param);
  const refusal = await hostRefusal(new URL(checked).hostname, policy);
  if (refusal?.reason === 'unresolved')
    throw refuse('invalid_field_value', `The host of \`${param}\` does not resolve.`, { param });
  if (refusal) throw refuse('invalid_field_value', `\`${param}\` is not a public address.`, { param });
  return checked;
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

/**
 * Why the trial failed, as the API says it: a category only. The socket's or certificate's words
 * and the body of what answered stay out: they would describe whatever listens at the address.
 */
function trialRefusal(failure: PlatformFailure): ApiError {
  if (failure.errorCode === 'EBLOCKED')
    return refuse('invalid_field_value', 'The platform address is not a public address.', {
      param: 'platform.baseUrl',
    });
  if (failure.category === 'platform_auth')
    return refuse('invalid_field_value', 'The platform refused these credentials: check the client id and secret.', {
      param: 'platform.clientSecret',
    });
  if (failure.httpStatus === null)
    return new ApiError('pa_unavailable', {
      param: 'platform.baseUrl',
      hint: 'Could not connect to the platform. Nothing was stored; try again.',
    });
  // An answer that is not an AFNOR one (a web page, a body off its schema) says the address is wrong.
  if (failure.category === 'platform_unavailable' && !isNotAnAfnorAnswer(failure))
    return new ApiError('pa_unavailable', {
      param: 'platform.baseUrl',
      hint: 'The platform is unavailable. Nothing was stored; try again.',
    });
  return refuse('invalid_field_value', 'The platform did not answer as an AFNOR XP Z12-013 platform.', {
    param: 'platform.baseUrl',
  });
}

/** The connection, checked and tried against the platform (credentials and the SIRET in its directory). */
export async function verifiedConnection(
  deps: Pick<Deps, 'config' | 'resolveHost'>,
  siret: string,
  input: ConnectionInput,
): Promise<PlatformConnection> {
  const clientId = input.clientId.trim();
  if (!clientId) throw refuse('invalid_field_value', '`platform.clientId` is empty.', { param: 'platform.clientId' });
  if (!input.clientSecret)
    throw refuse('invalid_field_value', '`platform.clientSecret` is empty.', { param: 'platform.clientSecret' });
  const addressPolicy = platformAddressPolicy(deps);
  const connection: PlatformConnection = {
    baseUrl: await publicHttpsUrl(input.baseUrl, 'platform.baseUrl', addressPolicy),
    clientId,
    clientSecret: input.clientSecret,
    ...(input.tokenUrl ? { tokenUrl: await publicHttpsUrl(input.tokenUrl, 'platform.tokenUrl', addressPolicy) } : {}),
  };
  // The check above is told at once; the trial's own pinned lookup is what keeps DNS from changing between.
  const trial = trialConnector(connection, addressPolicy);
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

/** The columns that store a verified connection, its secret sealed for this establishment's row. */
export function connectionColumns(
  deps: Pick<Deps, 'config'>,
  establishment: { companyId: string; id: string },
  connection: PlatformConnection,
  now: Date,
): Partial<EstablishmentRow> {
  const context = sealContext(sealedColumns.platformClientSecret, [establishment.companyId, establishment.id]);
  return {
    platformBaseUrl: connection.baseUrl,
    platformClientId: connection.clientId,
    platformClientSecret: sealSecret(encryptionKeyOf(deps.config), connection.clientSecret, context),
    platformTokenUrl: connection.tokenUrl ?? null,
    platformConnectedAt: now,
  };
}
