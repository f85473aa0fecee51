import { isIP, SocketAddress } from 'node:net';
import ipaddr from 'ipaddr.js';

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
 * The address a token created by a request from `sourceIp` is bound to when it names no allow-list:
 * that address in canonical form, or null when API Gateway gave none. `GET /api/v1/me` answers the
 * same, so the address the dashboard offers is the one the token gets.
 */
export const creatingAddress = (sourceIp: string | null | undefined): string | null => canonicalIp(sourceIp ?? '');

/**
 * Whether two addresses are the same address; anything unparsable matches nothing. Both sides are
 * made canonical, so a bound IP stored in an earlier form (IPv6 fully expanded) still matches.
 */
export const sameIp = (a: string, b: string): boolean => {
  const left = canonicalIp(a);
  // The same text is the same address (the authorizer's usual case: a bound IP is stored canonical).
  return left !== null && (a === b || left === canonicalIp(b));
};

const WIDTH = { 4: 32, 6: 128 } as const;

/** An IPv6 address that ends in a dotted quad, as node:net writes `::1.2.3.4`. */
const DOTTED_TAIL = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/;

/**
 * An address in canonical form as ipaddr.js's object. ipaddr.js reads any IPv6 address with a dotted
 * tail as IPv4-mapped (`::1.2.3.4` as `::ffff:1.2.3.4`), so the tail is written as two hex groups first.
 */
const addressOf = (canonical: string): ipaddr.IPv4 | ipaddr.IPv6 =>
  ipaddr.parse(
    isIP(canonical) === 4
      ? canonical
      : canonical.replace(DOTTED_TAIL, (_, a: string, b: string, c: string, d: string) =>
          [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((group) => group.toString(16)).join(':'),
        ),
  );

/** A network: its family, its first address and its prefix length. */
export interface Network {
  readonly family: 4 | 6;
  readonly base: ipaddr.IPv4 | ipaddr.IPv6;
  readonly prefix: number;
}

/** The network of `prefix` bits around `address`: its host bits cleared. */
const networkAround = (address: ipaddr.IPv4 | ipaddr.IPv6, prefix: number): Network =>
  address.kind() === 'ipv4'
    ? { family: 4, base: ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`), prefix }
    : { family: 6, base: ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/${prefix}`), prefix };

/** Whether `network` holds `address`; anything unparsable is held by nothing. */
export const networkHolds = (network: Network, address: string): boolean => {
  const canonical = canonicalIp(address);
  if (canonical === null) return false;
  const parsed = addressOf(canonical);
  return parsed.kind() === network.base.kind() && parsed.match(network.base, network.prefix);
};

/**
 * An address or CIDR as a network, its host bits cleared; an IPv4-mapped IPv6 network (prefix 96 or
 * more) is the IPv4 network it maps, a shorter one the IPv6 network around the mapping. Null for
 * anything else.
 */
export const parseNetwork = (entry: string): Network | null => {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  if (extra !== undefined) return null;
  const canonical = canonicalIp(address);
  if (canonical === null) return null;
  const literalFamily = isIP(address.trim().split('%')[0] ?? '') === 6 ? 6 : 4;
  const literalWidth = WIDTH[literalFamily];
  if (prefixText !== undefined && !/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? literalWidth : Number(prefixText);
  if (prefix > literalWidth) return null;
  const parsed = addressOf(canonical);
  if (literalFamily === 6 && parsed.kind() === 'ipv4') {
    // A mapped IPv4 network written in IPv6: its prefix counts the 96 bits of the mapping.
    return prefix >= 96
      ? networkAround(parsed, prefix - 96)
      : networkAround((parsed as ipaddr.IPv4).toIPv4MappedAddress(), prefix);
  }
  return networkAround(parsed, prefix);
};

/** A network's one text: its first address, and `/prefix` unless it is a single address. */
export const networkText = (network: Network): string => {
  const address =
    network.family === 4
      ? network.base.toString()
      : (canonicalIp((network.base as ipaddr.IPv6).toRFC5952String()) ?? network.base.toString());
  return network.prefix === WIDTH[network.family] ? address : `${address}/${network.prefix}`;
};

/** Whether one network lies within the other (CIDR blocks either nest or are apart). */
export const networksOverlap = (a: Network, b: Network): boolean =>
  a.family === b.family && a.base.match(b.base, Math.min(a.prefix, b.prefix));

/**
 * The IPv6 ranges whose last 32 bits are an IPv4 address: IPv4-compatible `::/96`, IPv4-mapped
 * `::ffff:0:0/96` (RFC 4291) and NAT64's well-known `64:ff9b::/96` (RFC 6052).
 */
const IPV4_EMBEDDING_RANGES: readonly Network[] = ['::', '::ffff:0:0', '64:ff9b::'].map((base) => ({
  family: 6,
  base: ipaddr.IPv6.parse(base),
  prefix: 96,
}));

/**
 * How broad an IPv6 network is in IPv4 terms where it holds IPv4 addresses embedded in IPv6: the
 * IPv4 prefix length of its part of an embedding range (its own prefix less 96), or 0 when it holds a
 * whole range, as `0.0.0.0/0` would. Null for a network that holds none (and for an IPv4 network).
 */
export const embeddedIpv4Prefix = (network: Network): number | null =>
  IPV4_EMBEDDING_RANGES.some((range) => networksOverlap(range, network)) ? Math.max(network.prefix - 96, 0) : null;
