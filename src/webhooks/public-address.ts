import ipaddr from 'ipaddr.js';

/**
 * Whether an address may receive webhooks: only global unicast. Loopback, private, link-local
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
