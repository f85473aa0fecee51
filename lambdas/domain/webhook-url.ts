import { isIP } from 'node:net';
import { MAX_WEBHOOK_URL_LENGTH } from '@contract/limits';
import ipaddr from 'ipaddr.js';
import { canonicalIp } from './ip';

/*
 * Where a webhook may be delivered: an `https` URL whose host resolves to public addresses only. Checked
 * when a webhook is registered and again before each delivery (DNS can change), and the delivery then
 * connects to the address checked here, so a name re-pointed between the check and the connection
 * (DNS rebinding) cannot reach a private one.
 */

/** Finds every address of a host name (node:dns `lookup` with `all`, in the service). */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

/** Whether loopback receivers are allowed: `npm start` with `WEBHOOKS_ALLOW_LOOPBACK=1` only, for testing. */
export interface WebhookUrlPolicy {
  readonly allowLoopback: boolean;
}

/** A URL refused, with the reason in words. */
export interface RefusedUrl {
  readonly ok: false;
  readonly reason: string;
}

/** A URL accepted, with the address its delivery connects to. */
export interface WebhookTarget {
  readonly ok: true;
  readonly url: URL;
  /** The checked address the delivery connects to (the host name stays the TLS name and `Host`). */
  readonly address: string;
}

const refused = (reason: string): RefusedUrl => ({ ok: false, reason });

/**
 * Whether an address is public unicast: not loopback, private (RFC 1918, fc00::/7), link-local
 * (169.254.0.0/16 with the cloud metadata and container credential endpoints, fe80::/10), unspecified,
 * multicast, broadcast, carrier-grade NAT (100.64.0.0/10), reserved, documentation, or any other
 * special range ipaddr.js knows; an IPv4-mapped IPv6 address is judged as its IPv4 address.
 */
export const isPublicAddress = (address: string): boolean => {
  // canonicalIp writes an IPv4-mapped address as its IPv4 address, which is what is judged then.
  const canonical = canonicalIp(address);
  return canonical !== null && ipaddr.parse(canonical).range() === 'unicast';
};

/** Whether an address is loopback (127.0.0.0/8, ::1, or one mapped to IPv4 loopback). */
export const isLoopbackAddress = (address: string): boolean => {
  const canonical = canonicalIp(address);
  if (canonical === null) return false;
  const parsed = ipaddr.parse(canonical);
  return parsed.range() === 'loopback';
};

/** The host of a URL as an address or a name: IPv6 literals lose their brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The form of a webhook URL, before any lookup: absolute, `https` (or `http` to a loopback address when
 * the policy allows loopback), no user or password, at most {@link MAX_WEBHOOK_URL_LENGTH} characters.
 */
export const parseWebhookUrl = (text: string, policy: WebhookUrlPolicy): { ok: true; url: URL } | RefusedUrl => {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return refused(`Use at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused('Give an absolute https URL');
  }
  if (url.username !== '' || url.password !== '') return refused('Give a URL without a user or password');
  const host = hostOf(url);
  const loopbackHttp = policy.allowLoopback && url.protocol === 'http:' && isIP(host) !== 0 && isLoopbackAddress(host);
  if (url.protocol !== 'https:' && !loopbackHttp) return refused('Use an https URL');
  return { ok: true, url };
};

/** The checked address to connect to, or why the host's addresses are refused. */
export type CheckedHost = { readonly ok: true; readonly address: string } | RefusedUrl;

/**
 * Checks the addresses a host (a name, or an address without brackets) resolves to now: every one must
 * be public (or, when the policy allows loopback, loopback), else the host is refused; so is a host
 * that does not resolve. The first address is the one to connect to. Shared by webhook deliveries and
 * the fetches of an OIDC issuer's documents, so both refuse the same addresses.
 */
export const checkHostAddresses = async (
  host: string,
  policy: WebhookUrlPolicy,
  resolve: ResolveHost,
): Promise<CheckedHost> => {
  let addresses: readonly string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return refused(`The host ${host} does not resolve`);
    }
  }
  const [first] = addresses;
  if (first === undefined) return refused(`The host ${host} does not resolve`);
  const allowed = (address: string) => isPublicAddress(address) || (policy.allowLoopback && isLoopbackAddress(address));
  const blocked = addresses.find((address) => !allowed(address));
  if (blocked !== undefined) {
    return refused(`The host ${host} resolves to ${blocked}, which is not a public address`);
  }
  return { ok: true, address: first };
};

/**
 * Checks a webhook URL and the addresses its host resolves to now ({@link checkHostAddresses}): the
 * form first, then every address. The first address is the one to connect to.
 */
export const checkWebhookUrl = async (
  text: string,
  policy: WebhookUrlPolicy,
  resolve: ResolveHost,
): Promise<WebhookTarget | RefusedUrl> => {
  const parsed = parseWebhookUrl(text, policy);
  if (!parsed.ok) return parsed;
  const checked = await checkHostAddresses(hostOf(parsed.url), policy, resolve);
  if (!checked.ok) return checked;
  return { ok: true, url: parsed.url, address: checked.address };
};
