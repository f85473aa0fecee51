import { isIPv4, isIPv6 } from 'node:net';

const expandIpv6 = (address: string): number[] | null => {
  let text = address;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes('.')) {
    if (!isIPv4(dotted)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    tail = [(a << 8) | b, (c << 8) | d];
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined): number[] =>
    part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [];
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...new Array<number>(Math.max(missing, 0)).fill(0), ...rest];
  if (tail.length) groups.splice(6, 2, ...tail);
  return groups.some((group) => Number.isNaN(group) || group < 0 || group > 0xffff) ? null : groups;
};

/**
 * Canonical text of an IP address, so that one address has one form: IPv4 dotted quad;
 * IPv4-mapped IPv6 (`::ffff:a.b.c.d`) as its IPv4 address; other IPv6 fully expanded, lower case,
 * zone id dropped. Returns `null` for anything that is not an IP address.
 */
export const canonicalIp = (address: string): string | null => {
  const trimmed = address.trim();
  if (isIPv4(trimmed)) return trimmed.split('.').map(Number).join('.');
  const withoutZone = trimmed.split('%')[0] ?? '';
  if (!isIPv6(withoutZone)) return null;
  const groups = expandIpv6(withoutZone.toLowerCase());
  if (!groups) return null;
  const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isMapped) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  }
  return groups.map((group) => group.toString(16).padStart(4, '0')).join(':');
};

/** Whether two addresses are the same address; anything unparsable matches nothing. */
export const sameIp = (a: string, b: string): boolean => {
  const left = canonicalIp(a);
  // The same text is the same address (the authorizer's usual case: a bound IP is stored canonical).
  return left !== null && (a === b || left === canonicalIp(b));
};
