/**
 * What every AWS SDK client of the service shares: its retries and timeouts, and which failures mean
 * the AWS service is throttling or out of reach (answered 503, so the client may retry).
 */

/**
 * Retries and timeouts: a call that stalls gives up after three attempts of one second each (about
 * 3.3 s with back-off), so even the authorizer's two calls end well inside the 10 s Lambda timeout and
 * API Gateway's 29 s. Without `throwOnRequestTimeout` the SDK only logs an overdue request and keeps
 * waiting.
 */
export const sdkClientSettings = {
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 1_000, throwOnRequestTimeout: true },
} as const;

/** Node's codes of a connection that failed or broke. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/** Whether an SDK error is one of the service's throttling or outage errors (`names`), or a network failure. */
export const isUnavailable = (error: unknown, names: ReadonlySet<string>): boolean => {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return names.has(error.name) || (typeof code === 'string' && NETWORK_CODES.has(code));
};
