import { createHash } from 'node:crypto';
import { RATE_LIMIT_WINDOW_SECONDS } from '@contract/rate-limit';

// Written by hand rather than with rate-limiter-flexible: its memory limiter counts fixed windows from a
// key's first request, where the deployed WAF rule counts over a sliding window; a sliding log of at
// most `limit` instants per credential is these few lines.

/** The limiter's verdict on one request. */
export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Counts requests per credential over a sliding window. */
export interface CredentialRateLimiter {
  /** Counts one request with this `Authorization` value, or refuses it (a refused request is not counted). */
  take(credential: string): RateDecision;
  /** How many credentials it holds a count for (idle ones are dropped). */
  readonly size: number;
}

/** Options of {@link createCredentialRateLimiter}. */
export interface RateLimiterOptions {
  /** Requests one credential may send per window. */
  readonly limit: number;
  /** Default: the contract's window, 60 seconds. */
  readonly windowMs?: number;
  /** Default: `Date.now`. */
  readonly now?: () => number;
  /** Most credentials held at once; past it the longest-held is dropped, so a flood of made-up credentials cannot exhaust memory. */
  readonly maxCredentials?: number;
}

const DEFAULT_MAX_CREDENTIALS = 10_000;

/**
 * A sliding-window limiter keyed on a SHA-256 hash of the credential, never the credential itself. A
 * credential's log holds at most `limit` instants, and credentials idle for a whole window are swept.
 */
export const createCredentialRateLimiter = (options: RateLimiterOptions): CredentialRateLimiter => {
  const { limit } = options;
  const windowMs = options.windowMs ?? RATE_LIMIT_WINDOW_SECONDS * 1000;
  const now = options.now ?? Date.now;
  const maxCredentials = options.maxCredentials ?? DEFAULT_MAX_CREDENTIALS;
  const logs = new Map<string, number[]>();
  let lastSweep = now();

  const sweep = (at: number) => {
    for (const [key, log] of logs) {
      if ((log[log.length - 1] ?? 0) <= at - windowMs) logs.delete(key);
    }
    lastSweep = at;
  };

  return {
    take(credential) {
      const at = now();
      if (at - lastSweep >= windowMs) sweep(at);
      const key = createHash('sha256').update(credential).digest('base64url');
      const log = logs.get(key) ?? [];
      while (log.length > 0 && (log[0] ?? 0) <= at - windowMs) log.shift();
      if (log.length >= limit) {
        const frees = (log[0] ?? at) + windowMs;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((frees - at) / 1000)) };
      }
      log.push(at);
      if (!logs.has(key)) {
        if (logs.size >= maxCredentials) logs.delete(logs.keys().next().value as string);
        logs.set(key, log);
      }
      return { allowed: true };
    },
    get size() {
      return logs.size;
    },
  };
};
