import { ErrorText } from './errors';

/**
 * The per-credential request limit: each `Authorization` header value (one API token, one session)
 * gets its own count, answered alike by the stack's web ACL and by the local gateway.
 */

/** The window the per-credential limit counts over, in seconds. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** Requests one credential may send per window, unless `rateLimitPerMinute` (or `RATE_LIMIT_PER_MINUTE`) says otherwise. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

/**
 * The `Retry-After` the deployed limit answers. WAF's custom response is static, so it cannot say when
 * a slot frees; after one whole window the caller's count has emptied. The local gateway computes it.
 */
export const RATE_LIMIT_RETRY_AFTER_SECONDS = String(RATE_LIMIT_WINDOW_SECONDS);

/**
 * A request carrying this header with {@link RATE_LIMIT_PROBE_VALUE} is answered exactly as the
 * per-credential limit answers, without counting anything: the smoke test checks the answer's shape
 * this way, with no real limit tripped. It shows the answer, not that the limit counts.
 */
export const RATE_LIMIT_PROBE_HEADER = 'X-Rate-Limit-Probe';
export const RATE_LIMIT_PROBE_VALUE = '1';

/** The body of the per-credential limit's 429 (and of the probe's). */
export const RATE_LIMITED_BODY = JSON.stringify({ success: false, error: ErrorText.tooManyRequests });
