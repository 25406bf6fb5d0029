import { createHash } from 'node:crypto';
import type { OutboundPolicy } from '../kernel/outbound-address.js';
import { AfnorConnector } from './afnor-connector.js';
import type { PlatformConnection, PlatformConnector } from './connector.js';

/**
 * The connectors to the platforms, built here only: one per connection for the process (its
 * OAuth2 token cache and keep-alive pool), renewed when the connection changes, dialling only
 * the addresses the operator's rule allows. Which connection an establishment has is its own
 * business (`establishments/platform-access.ts`); talking to the platform is this folder's.
 */

/** The process's connectors, by the resolver and setting they were made under, then by connection. */
const connectors = new WeakMap<OutboundPolicy['resolve'], Map<string, PlatformConnector>>();

/** Names a connection (base URL, client, a digest of the secret): the key of its connector and cursors. */
export function connectionKeyOf(connection: PlatformConnection): string {
  const secret = createHash('sha256').update(connection.clientSecret).digest('base64url').slice(0, 16);
  return `${connection.baseUrl}|${connection.clientId}|${connection.tokenUrl ?? ''}|${secret}`;
}

/**
 * The process's connector of a connection. Its pool dials only addresses the policy allows,
 * checked again at every connection (DNS changes).
 */
export function connectorOf(connection: PlatformConnection, addressPolicy: OutboundPolicy): PlatformConnector {
  let ofResolver = connectors.get(addressPolicy.resolve);
  if (!ofResolver) connectors.set(addressPolicy.resolve, (ofResolver = new Map()));
  const key = `${addressPolicy.allowPrivate ? 'private' : 'public'}|${connectionKeyOf(connection)}`;
  let connector = ofResolver.get(key);
  if (!connector) {
    connector = new AfnorConnector({ connection, addressPolicy });
    ofResolver.set(key, connector);
  }
  return connector;
}

/**
 * A connector for one trial of a connection not yet stored (its credentials and directory
 * checked before they are kept): short timeouts, its own pool, to be closed by the caller.
 */
export function trialConnector(
  connection: PlatformConnection,
  addressPolicy: OutboundPolicy,
): PlatformConnector & { close(): Promise<void> } {
  return new AfnorConnector({ connection, addressPolicy, connectTimeoutMs: 5_000, requestTimeoutMs: 10_000 });
}
