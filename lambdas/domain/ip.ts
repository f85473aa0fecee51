import { isIP, SocketAddress } from 'node:net';

/** How Node writes an IPv4-mapped IPv6 address (`::ffff:0:0/96`): this prefix, then a dotted quad. */
const MAPPED_PREFIX = '::ffff:';

/**
 * Canonical text of an IP address, so that one address has one form: IPv4 dotted quad; IPv4-mapped
 * IPv6 (`::ffff:a.b.c.d`, or the same in hex groups) as its IPv4 address; other IPv6 compressed and
 * lower case as Node's `SocketAddress` writes it (RFC 5952, but for the deprecated IPv4-compatible
 * `::a.b.c.d`), zone id dropped. Returns `null` for anything that is not an IP address.
 * Node writes the mapped prefix only when the first 80 bits are zero and the next 16 are ones, so an
 * address that merely has `ffff` in its sixth group stays IPv6.
 */
export const canonicalIp = (address: string): string | null => {
  const trimmed = address.trim();
  const family = isIP(trimmed);
  // isIP takes a dotted quad only without leading zeros, which is its one form already.
  if (family !== 6) return family === 4 ? trimmed : null;
  const text = new SocketAddress({ address: trimmed, family: 'ipv6' }).address;
  return text.startsWith(MAPPED_PREFIX) && text.includes('.') ? text.slice(MAPPED_PREFIX.length) : text;
};

/**
 * Whether two addresses are the same address; anything unparsable matches nothing. Both sides are
 * made canonical, so a bound IP stored in an earlier form (IPv6 fully expanded) still matches.
 */
export const sameIp = (a: string, b: string): boolean => {
  const left = canonicalIp(a);
  // The same text is the same address (the authorizer's usual case: a bound IP is stored canonical).
  return left !== null && (a === b || left === canonicalIp(b));
};
