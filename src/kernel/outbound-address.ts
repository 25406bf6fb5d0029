import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The guard of every call the service makes to an address a user gave (webhook endpoints, an
 * establishment's platform): the host must resolve to public addresses only, the address checked
 * is the address connected to (the lookup is pinned into the connection, so DNS rebinding gets
 * nothing), and an operator setting opens private addresses for a receiver or a simulator on the
 * same host, never in production.
 */

export type ResolveHost = (hostname: string) => Promise<string[]>;

export interface OutboundPolicy {
  resolve: ResolveHost;
  /** Private addresses allowed (FACTEUR_ALLOW_PRIVATE_WEBHOOKS / _PLATFORMS): tests on 127.0.0.1. Never in production. */
  allowPrivate: boolean;
}

export const systemResolveHost: ResolveHost = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Whether an address may be called: only global unicast. Loopback, private, link-local
 * (cloud metadata 169.254.169.254 included), CGNAT, multicast, reserved, unique-local
 * (fd00:ec2::254 included) are refused, and IPv6 forms that embed an IPv4 address (IPv4-mapped,
 * NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo) are judged by the address they carry.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return (parsed as ipaddr.IPv4).range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
  const range = v6.range();
  const bytes = v6.toByteArray();
  if (range === 'rfc6052' || range === 'rfc6145')
    return isPublicAddress(ipaddr.fromByteArray(bytes.slice(12)).toString());
  if (range === '6to4') return isPublicAddress(ipaddr.fromByteArray(bytes.slice(2, 6)).toString());
  if (range === 'teredo') return isPublicAddress(ipaddr.fromByteArray(bytes.slice(12).map((b) => b ^ 0xff)).toString());
  return range === 'unicast';
}

/**
 * A host written as an IP address (v4 in any form ipaddr.js reads, or bracketed v6), or null for
 * a name. A name with a character no address form has (no colon, something besides hex digits,
 * `x` and dots) is answered at once: ipaddr.js answers a name by throwing inside, which costs
 * tens of microseconds on every webhook attempt.
 */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (!bare.includes(':') && /[^0-9a-fx.]/i.test(bare)) return null;
  return ipaddr.isValid(bare) ? ipaddr.parse(bare).toString() : null;
}

/** Why a host may not be called under a policy, or null when it may. */
export type HostRefusal = { reason: 'not_public'; literal: string | null } | { reason: 'unresolved'; literal: null };

export async function hostRefusal(hostname: string, policy: OutboundPolicy): Promise<HostRefusal | null> {
  // WHATWG parsing has already turned decimal, octal and hex hosts (https://2130706433/) into dotted form.
  const literal = literalAddress(hostname);
  if (literal !== null)
    return policy.allowPrivate || isPublicAddress(literal) ? null : { reason: 'not_public', literal };
  let addresses: string[];
  try {
    addresses = await policy.resolve(hostname);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { reason: 'unresolved', literal: null };
  if (!policy.allowPrivate && addresses.some((address) => !isPublicAddress(address)))
    return { reason: 'not_public', literal: null };
  return null;
}

/** A connection refused by the guard (its `code` is what the clients' failure readers look for). */
export class BlockedAddress extends Error {
  readonly code = 'EBLOCKED';
}

/** Whether an undici or socket error is the guard's refusal. */
export function isBlockedAddress(error: unknown): boolean {
  const failure = error as { code?: string; cause?: unknown } | null;
  return error instanceof BlockedAddress || failure?.code === 'EBLOCKED' || failure?.cause instanceof BlockedAddress;
}

/**
 * A socket lookup for undici's `connect.lookup`: resolves the host, keeps only the addresses the
 * policy allows and dials one of those, so what was checked is what is connected to. A literal
 * address never reaches a lookup: check it with `literalAddress` before the request.
 */
export function pinnedLookup(policy: OutboundPolicy): LookupFunction {
  const allowed = (address: string) => policy.allowPrivate || isPublicAddress(address);
  const family = (address: string) => (address.includes(':') ? 6 : 4);
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    policy.resolve(hostname).then(
      (addresses) => {
        const usable = addresses.filter(allowed);
        if (usable.length === 0) return callback(new BlockedAddress(`${hostname} resolves to no public address`));
        if (options.all)
          return callback(
            null,
            usable.map((address) => ({ address, family: family(address) })),
          );
        return callback(null, usable[0], family(usable[0]!));
      },
      (error: unknown) => callback(error),
    );
  }) as unknown as LookupFunction;
}

/** Whether the literal host of a URL is refused by the policy (a name is left to the pinned lookup). */
export function blockedLiteral(url: string, policy: OutboundPolicy): string | null {
  const literal = literalAddress(new URL(url).hostname);
  return literal !== null && !policy.allowPrivate && !isPublicAddress(literal) ? literal : null;
}
