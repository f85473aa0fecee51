/**
 * What every answer of the API tells browsers and caches: keep nothing. One answer holds a raw token,
 * others who belongs where (and secret values will follow); none may stay in a browser's cache or a
 * proxy's after it has been read.
 */
export const NO_STORE_HEADERS = { 'Cache-Control': 'no-store' } as const;

/** Headers of every JSON answer of the API: the routes', the API document's, the local runtime's own. */
export const JSON_HEADERS = { 'Content-Type': 'application/json', ...NO_STORE_HEADERS } as const;
