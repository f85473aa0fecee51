/**
 * Cross-origin access for the one web dashboard the stack is configured for (`dashboardOrigin`),
 * answered alike by the stack and by the local gateway. One fixed origin rather than a list: API
 * Gateway's own answers (401, 403, 429, 5XX) can only carry fixed header values, and a list would
 * need the request's origin echoed. Credentials travel in the Authorization header, never in
 * cookies, so no `Access-Control-Allow-Credentials`.
 */

/** The request headers the dashboard may send (`If-None-Match`: a poll of a conditional route). */
export const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'If-None-Match'] as const;
/** How long a browser may reuse a preflight's answer, in seconds. */
export const CORS_MAX_AGE_SECONDS = 600;

/** Headers of every answer to the dashboard: the API's and the gateway's own. */
export const corsHeaders = (origin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  // A 503's Retry-After is worth reading from a browser too, and a conditional route's ETag, to poll with.
  'Access-Control-Expose-Headers': 'Retry-After, ETag',
});

/** Headers of the answer to a preflight for a path that serves `methods`. */
export const preflightHeaders = (origin: string, methods: readonly string[]): Record<string, string> => ({
  ...corsHeaders(origin),
  'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
  'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS.join(', '),
  'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
});
