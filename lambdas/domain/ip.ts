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

/** An address as its family and its bits: 32 for IPv4, 128 for IPv6. */
interface AddressBits {
  readonly family: 4 | 6;
  readonly value: bigint;
}

const WIDTH = { 4: 32, 6: 128 } as const;

const ipv4Value = (text: string): bigint =>
  text.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);

/** The eight 16-bit groups of a canonical IPv6 address (an embedded dotted quad is two groups). */
const ipv6Groups = (text: string): number[] => {
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const value = Number(ipv4Value(group));
          return [value >>> 16, value & 0xffff];
        });
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
};

/** The bits of an address in canonical form (IPv4-mapped IPv6 is IPv4), or null if it is none. */
const bitsOf = (address: string): AddressBits | null => {
  const canonical = canonicalIp(address);
  if (canonical === null) return null;
  if (isIP(canonical) === 4) return { family: 4, value: ipv4Value(canonical) };
  return { family: 6, value: ipv6Groups(canonical).reduce((value, group) => (value << 16n) | BigInt(group), 0n) };
};

/** A network: its family, its first address's bits and its prefix length. */
export interface Network {
  readonly family: 4 | 6;
  readonly base: bigint;
  readonly prefix: number;
}

const maskOf = (family: 4 | 6, prefix: number): bigint => {
  const width = BigInt(WIDTH[family]);
  return ((1n << width) - 1n) ^ ((1n << (width - BigInt(prefix))) - 1n);
};

/** Whether `network` holds `address`; anything unparsable is held by nothing. */
export const networkHolds = (network: Network, address: string): boolean => {
  const bits = bitsOf(address);
  return (
    bits !== null &&
    bits.family === network.family &&
    (bits.value & maskOf(network.family, network.prefix)) === network.base
  );
};

/** The first address of `::ffff:0:0/96`, the IPv4-mapped range, as bits. */
const MAPPED_BASE = 0xffffn << 32n;

/**
 * An address or CIDR as a network, its host bits cleared; an IPv4-mapped IPv6 network (prefix 96 or
 * more) is the IPv4 network it maps, a shorter one the IPv6 network around the mapping. Null for
 * anything else.
 */
export const parseNetwork = (entry: string): Network | null => {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  if (extra !== undefined) return null;
  const bits = bitsOf(address);
  if (bits === null) return null;
  const literalFamily = isIP(address.trim().split('%')[0] ?? '') === 6 ? 6 : 4;
  const literalWidth = WIDTH[literalFamily];
  if (prefixText !== undefined && !/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? literalWidth : Number(prefixText);
  if (prefix > literalWidth) return null;
  if (literalFamily === 6 && bits.family === 4) {
    // A mapped IPv4 network written in IPv6: its prefix counts the 96 bits of the mapping.
    if (prefix >= 96) return { family: 4, base: bits.value & maskOf(4, prefix - 96), prefix: prefix - 96 };
    return { family: 6, base: (MAPPED_BASE | bits.value) & maskOf(6, prefix), prefix };
  }
  return { family: bits.family, base: bits.value & maskOf(bits.family, prefix), prefix };
};

const ipv4Text = (value: bigint): string =>
  [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');

const ipv6Text = (value: bigint): string => {
  const groups = Array.from({ length: 8 }, (_, index) => ((value >> BigInt(112 - 16 * index)) & 0xffffn).toString(16));
  return canonicalIp(groups.join(':')) ?? groups.join(':');
};

/** A network's one text: its first address, and `/prefix` unless it is a single address. */
export const networkText = (network: Network): string => {
  const address = network.family === 4 ? ipv4Text(network.base) : ipv6Text(network.base);
  return network.prefix === WIDTH[network.family] ? address : `${address}/${network.prefix}`;
};

/** Whether one network lies within the other (CIDR blocks either nest or are apart). */
export const networksOverlap = (a: Network, b: Network): boolean => {
  if (a.family !== b.family) return false;
  const shorter = Math.min(a.prefix, b.prefix);
  const mask = maskOf(a.family, shorter);
  return (a.base & mask) === (b.base & mask);
};

/**
 * The IPv6 ranges whose last 32 bits are an IPv4 address: IPv4-compatible `::/96`, IPv4-mapped
 * `::ffff:0:0/96` (RFC 4291) and NAT64's well-known `64:ff9b::/96` (RFC 6052).
 */
const IPV4_EMBEDDING_RANGES: readonly Network[] = [0n, MAPPED_BASE, 0x64ff9bn << 96n].map((base) => ({
  family: 6,
  base,
  prefix: 96,
}));

/**
 * How broad an IPv6 network is in IPv4 terms where it holds IPv4 addresses embedded in IPv6: the
 * IPv4 prefix length of its part of an embedding range (its own prefix less 96), or 0 when it holds a
 * whole range, as `0.0.0.0/0` would. Null for a network that holds none (and for an IPv4 network).
 */
export const embeddedIpv4Prefix = (network: Network): number | null =>
  IPV4_EMBEDDING_RANGES.some((range) => networksOverlap(range, network)) ? Math.max(network.prefix - 96, 0) : null;
