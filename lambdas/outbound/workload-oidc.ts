import type { OidcRule } from '@contract/trust-rules';
import { claimsMatch, issuerAllowed, subjectMatches } from '@lambdas/domain/trust-rules';
import { checkHostAddresses, hostOf, type ResolveHost } from '@lambdas/domain/webhook-url';
import {
  createRemoteJWKSet,
  customFetch,
  decodeJwt,
  decodeProtectedHeader,
  type JWTPayload,
  jwtVerify,
  type RemoteJWKSetOptions,
} from 'jose';
import { pinnedGet, resolveHost } from './pinned-address';

/*
 * Verifies a workload's OpenID Connect ID token (a CI job's, e.g. GitHub Actions') against a service
 * account's `oidc` trust rules. The token's unverified `iss` only picks the rules to try; the issuer's
 * keys are found through its discovery document, fetched without following a redirect and within a
 * short timeout, only from public addresses (every address the host resolves to is checked and the
 * connection pinned to one, as webhook deliveries are), and kept at module scope (a warm function
 * fetches them again only when they are stale or a token names a key it does not know). Every refusal
 * is one 401 to the caller; the reason returned here is for the log and the audit event only.
 */

/** Why a token was refused, for the log and the audit event (the caller gets one generic 401). */
export type WorkloadRefusal =
  | 'malformed'
  | 'issuer'
  | 'discovery'
  | 'algorithm'
  | 'unknown-key'
  | 'signature'
  | 'expired'
  | 'not-yet-valid'
  | 'audience'
  | 'subject'
  | 'claim';

/** A token one of the rules accepts: the rule, and what the token said, verified. */
export interface AcceptedWorkload {
  readonly accepted: true;
  readonly rule: OidcRule;
  readonly issuer: string;
  readonly subject: string;
  readonly claims: JWTPayload;
}

/** A token refused, with the reason. */
export interface RefusedWorkload {
  readonly accepted: false;
  readonly reason: WorkloadRefusal;
}

export type WorkloadVerdict = AcceptedWorkload | RefusedWorkload;

export interface VerifyWorkloadOptions {
  /** The time the token's `exp`, `nbf` and `iat` are judged at. */
  readonly now: Date;
  /** Whether `http://127.0.0.1` and `http://[::1]` issuers are fetched: the local runtime only. */
  readonly allowLoopbackHttp: boolean;
  /**
   * The fetch to use (tests count or fake requests with it), called only after the host's addresses
   * passed the check; default: a GET connected to the checked address.
   */
  readonly fetch?: typeof fetch;
  /** Finds a host's addresses (tests say what a name resolves to); default: node:dns `lookup`. */
  readonly resolveHost?: ResolveHost;
}

/** The only signature algorithms accepted: asymmetric ones. Never `none`, never an HMAC (`HS*`). */
export const WORKLOAD_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;
const ALGORITHMS: ReadonlySet<string> = new Set(WORKLOAD_ALGORITHMS);

/** Seconds a token's times may be off the service's clock. */
export const CLOCK_SKEW_SECONDS = 60;
/** How long one request for a discovery document or a key set may take. */
export const FETCH_TIMEOUT_MS = 5_000;
/** How long a discovery document is kept. */
export const DISCOVERY_TTL_MS = 10 * 60_000;
/** How long a key set is kept before it is fetched again. */
export const JWKS_MAX_AGE_MS = 10 * 60_000;
/**
 * How soon after a fetch of a key set a token naming an unknown key may fetch it again: a key rotated
 * in is found then, and a stream of made-up `kid`s fetches at most once per this.
 */
export const JWKS_COOLDOWN_MS = 30_000;
/** The most issuers (and key sets) kept at once; the least recently used goes first. */
export const MAX_CACHED_ISSUERS = 20;
/** The most bytes read of a discovery document or a key set. */
export const MAX_DOCUMENT_BYTES = 64 * 1024;
/** The longest token read at all. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/** One GET of a document: the URL, the request's signal, its `Accept`. */
type Get = (url: string, signal: AbortSignal, accept: string) => Promise<Response>;

/** A map that keeps its `limit` most recently used entries. */
class Recent<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(oldest);
    }
  }
  /** Forgets `key` if it still holds `value` (a newer value stays). */
  deleteIf(key: string, value: V): void {
    if (this.entries.get(key) === value) this.entries.delete(key);
  }
  clear(): void {
    this.entries.clear();
  }
}

interface Discovery {
  readonly jwksUri: string;
  readonly fetchedAt: number;
}

const discoveries = new Recent<Promise<Discovery>>(MAX_CACHED_ISSUERS);
const keySets = new Recent<{ readonly network: Network; readonly keySet: ReturnType<typeof createRemoteJWKSet> }>(
  MAX_CACHED_ISSUERS,
);

/** Forgets every discovery document and key set (tests). */
export const clearWorkloadOidcCaches = (): void => {
  discoveries.clear();
  keySets.clear();
};

/** Fails the way a refused discovery does. */
class DiscoveryFailed extends Error {}

/** The body of an answer, up to {@link MAX_DOCUMENT_BYTES}; more is a failure. */
const boundedText = async (response: Response): Promise<string> => {
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_DOCUMENT_BYTES) throw new DiscoveryFailed('The document is too large');
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_DOCUMENT_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new DiscoveryFailed('The document is too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** How the documents are fetched: the runtime's loopback allowance, the fetch and resolver (tests). */
interface Network {
  readonly allowLoopbackHttp: boolean;
  readonly fetch: typeof fetch | undefined;
  readonly resolveHost: ResolveHost;
}

/** Whether two networks fetch alike, so a key set kept for one serves the other. */
const sameNetwork = (a: Network, b: Network): boolean =>
  a.allowLoopbackHttp === b.allowLoopbackHttp && a.fetch === b.fetch && a.resolveHost === b.resolveHost;

/**
 * One GET that first resolves the URL's host and refuses unless every address is public (loopback too,
 * in the local runtime only), then connects to the address checked (or calls the given fetch), follows
 * no redirect, and bounds the time and the body.
 */
const getterOf =
  (network: Network): Get =>
  async (url, signal, accept) => {
    const target = new URL(url);
    const checked = await checkHostAddresses(
      hostOf(target),
      { allowLoopback: network.allowLoopbackHttp },
      network.resolveHost,
    );
    if (!checked.ok) throw new DiscoveryFailed(checked.reason);
    const response = network.fetch
      ? await network.fetch(url, { method: 'GET', redirect: 'error', signal, headers: { accept } })
      : await pinnedGet({ url: target, address: checked.address, signal, accept, maxBytes: MAX_DOCUMENT_BYTES });
    const text = await boundedText(response);
    return new Response(text, { status: response.status, headers: { 'content-type': 'application/json' } });
  };

/** The discovery document's URL of an issuer (OpenID Connect Discovery 1.0, section 4: no double slash). */
const discoveryUrl = (issuer: string): string => `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;

const fetchDiscovery = async (issuer: string, network: Network): Promise<Discovery> => {
  const response = await getterOf(network)(
    discoveryUrl(issuer),
    AbortSignal.timeout(FETCH_TIMEOUT_MS),
    'application/json',
  );
  if (response.status !== 200) throw new DiscoveryFailed(`The discovery document answered ${response.status}`);
  const document = (await response.json()) as unknown;
  if (typeof document !== 'object' || document === null) throw new DiscoveryFailed('The document is not an object');
  const { issuer: named, jwks_uri: jwksUri } = document as { issuer?: unknown; jwks_uri?: unknown };
  // The document must name the issuer it was fetched for, exactly (OpenID Connect Discovery 1.0, 4.3).
  if (named !== issuer) throw new DiscoveryFailed('The document names another issuer');
  if (typeof jwksUri !== 'string' || !issuerAllowed(jwksUri, { allowLoopbackHttp: network.allowLoopbackHttp })) {
    throw new DiscoveryFailed('The document names no key set URL the service may fetch');
  }
  return { jwksUri, fetchedAt: Date.now() };
};

/** The issuer's discovery, from the cache while fresh; a failure is not kept. */
const discover = async (issuer: string, network: Network): Promise<Discovery> => {
  const key = `${network.allowLoopbackHttp ? 'loopback' : 'https'} ${issuer}`;
  const cached = discoveries.get(key);
  if (cached) {
    const discovery = await cached.catch(() => undefined);
    if (discovery && Date.now() - discovery.fetchedAt < DISCOVERY_TTL_MS) return discovery;
  }
  const pending = fetchDiscovery(issuer, network);
  discoveries.set(key, pending);
  pending.catch(() => discoveries.deleteIf(key, pending));
  return pending;
};

/** The key set at `jwksUri`, one per URL (and network) at module scope, so its keys stay cached. */
const keySetAt = (jwksUri: string, network: Network) => {
  const cached = keySets.get(jwksUri);
  if (cached && sameNetwork(cached.network, network)) return cached.keySet;
  const get = getterOf(network);
  const options: RemoteJWKSetOptions = {
    timeoutDuration: FETCH_TIMEOUT_MS,
    cooldownDuration: JWKS_COOLDOWN_MS,
    cacheMaxAge: JWKS_MAX_AGE_MS,
    // jose asks for `redirect: 'manual'` and refuses anything but a 200; this refuses a redirect outright,
    // and checks the host's addresses again on every fetch (a refresh included).
    [customFetch]: (url, init) => get(url, init.signal, init.headers.get('accept') ?? 'application/json'),
  };
  const keySet = createRemoteJWKSet(new URL(jwksUri), options);
  keySets.set(jwksUri, { network, keySet });
  return keySet;
};

/** The reason each jose error stands for, by its `code` (which holds across realms, as `instanceof` may not). */
const REASON_BY_CODE: Readonly<Record<string, WorkloadRefusal>> = {
  ERR_JWT_EXPIRED: 'expired',
  ERR_JOSE_ALG_NOT_ALLOWED: 'algorithm',
  ERR_JOSE_NOT_SUPPORTED: 'algorithm',
  ERR_JWKS_NO_MATCHING_KEY: 'unknown-key',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'unknown-key',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'signature',
  ERR_JWS_INVALID: 'malformed',
  ERR_JWT_INVALID: 'malformed',
  // The key set could not be fetched or read: a timeout, a non-200 answer, not a key set, a bad key.
  ERR_JWKS_TIMEOUT: 'discovery',
  ERR_JWKS_INVALID: 'discovery',
  ERR_JWK_INVALID: 'discovery',
  ERR_JOSE_GENERIC: 'discovery',
};

/** The claim a failed claim check names, by claim, when the claim was there but out of bounds. */
const REASON_BY_CLAIM: Readonly<Record<string, WorkloadRefusal>> = {
  nbf: 'not-yet-valid',
  iat: 'not-yet-valid',
  aud: 'audience',
  iss: 'issuer',
};

/**
 * The reason a jose error (or a failed fetch of the keys) stands for. A claim that is missing or not of
 * its type is `malformed`; anything that is not jose's own (a redirect refused, a connection failed) is
 * the fetch of the key set failing: `discovery`.
 */
const reasonOf = (error: unknown): WorkloadRefusal => {
  const { code, claim, reason } = (error ?? {}) as { code?: unknown; claim?: unknown; reason?: unknown };
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    if (reason !== 'check_failed') return 'malformed';
    return (typeof claim === 'string' && REASON_BY_CLAIM[claim]) || 'malformed';
  }
  return (typeof code === 'string' && REASON_BY_CODE[code]) || 'discovery';
};

/** How far a refusal got, so that of several rules the one that came closest names the reason. */
const DEPTH: Readonly<Partial<Record<WorkloadRefusal, number>>> = { audience: 1, subject: 2, claim: 3 };
const deeper = (a: WorkloadRefusal, b: WorkloadRefusal): WorkloadRefusal => ((DEPTH[b] ?? 0) > (DEPTH[a] ?? 0) ? b : a);

const refused = (reason: WorkloadRefusal): RefusedWorkload => ({ accepted: false, reason });

/**
 * Verifies a workload's ID token against `rules` (a service account's `oidc` rules). Only rules whose
 * issuer is the token's `iss` exactly (and one the runtime may fetch) are tried; the token is accepted
 * when any one of them accepts it: signed by a key of the issuer's key set with an asymmetric
 * algorithm, `iss` the issuer, `aud` the rule's audience, `exp` not past and `nbf` and `iat` not ahead
 * (each with {@link CLOCK_SKEW_SECONDS} of skew), `sub` matching the rule's subject, and every claim the
 * rule requires.
 */
export const verifyWorkloadToken = async (
  jwt: string,
  rules: readonly OidcRule[],
  options: VerifyWorkloadOptions,
): Promise<WorkloadVerdict> => {
  const { now, allowLoopbackHttp } = options;
  const network: Network = { allowLoopbackHttp, fetch: options.fetch, resolveHost: options.resolveHost ?? resolveHost };
  if (typeof jwt !== 'string' || jwt.length > MAX_TOKEN_LENGTH) return refused('malformed');
  let alg: unknown;
  let unverifiedIssuer: unknown;
  try {
    alg = decodeProtectedHeader(jwt).alg;
    unverifiedIssuer = decodeJwt(jwt).iss;
  } catch {
    return refused('malformed');
  }
  // Refused before anything is fetched: `none`, HMAC, or anything else not asymmetric.
  if (typeof alg !== 'string' || !ALGORITHMS.has(alg)) return refused('algorithm');
  if (typeof unverifiedIssuer !== 'string') return refused('malformed');
  const candidates = rules.filter(
    (rule) =>
      rule.kind === 'oidc' && rule.issuer === unverifiedIssuer && issuerAllowed(rule.issuer, { allowLoopbackHttp }),
  );
  if (candidates.length === 0) return refused('issuer');
  const issuer = unverifiedIssuer;

  let keySet: ReturnType<typeof keySetAt>;
  try {
    keySet = keySetAt((await discover(issuer, network)).jwksUri, network);
  } catch {
    return refused('discovery');
  }

  let reason: WorkloadRefusal = 'audience';
  // One verification per audience the rules name: the signature and times are the same for all of them.
  for (const audience of new Set(candidates.map((rule) => rule.audience))) {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(jwt, keySet, {
        algorithms: [...WORKLOAD_ALGORITHMS],
        issuer,
        audience,
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: now,
        requiredClaims: ['exp', 'iat', 'sub'],
      }));
    } catch (error) {
      const why = reasonOf(error);
      if (why === 'audience') continue;
      return refused(why);
    }
    // jose checks `iat` only against a maximum age; a token issued ahead of the clock is refused here.
    if (typeof payload.iat === 'number' && payload.iat > now.getTime() / 1000 + CLOCK_SKEW_SECONDS) {
      return refused('not-yet-valid');
    }
    const subject = payload.sub;
    if (typeof subject !== 'string') return refused('malformed');
    for (const rule of candidates.filter((candidate) => candidate.audience === audience)) {
      if (!subjectMatches(rule.subject, subject)) {
        reason = deeper(reason, 'subject');
        continue;
      }
      if (!claimsMatch(rule.claims, payload)) {
        reason = deeper(reason, 'claim');
        continue;
      }
      return { accepted: true, rule, issuer, subject, claims: payload };
    }
  }
  return refused(reason);
};
