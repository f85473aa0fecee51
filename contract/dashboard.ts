/**
 * What the web dashboard learns at run time and the headers it is served with, alike from
 * `npm start` and from the stack's CloudFront distribution: one build serves every deployment.
 */

/** Where the stack and `npm start` serve the API document, without authentication. */
export const API_DOCUMENT_PATH = '/api/v1/openapi.json';

/**
 * The top-level field of the API document as served (`GET /api/v1/openapi.json`) that says where the
 * dashboard is: its absolute URL, ending in `/`. A client builds the dashboard's links on it (a share's
 * `<dashboard>/s/shr_…#key`), and the smoke test preflights from its origin. An OpenAPI extension field,
 * so no route is added for it.
 */
export const DASHBOARD_URL_FIELD = 'x-dashboard-url';

/** Where the dashboard reads its settings, next to its static files. */
export const DASHBOARD_CONFIG_PATH = '/config.json';

/** The dashboard's `config.json`. */
export interface DashboardConfig {
  /** Base URL of the API; routes are `${apiUrl}/api/v1/...` (a trailing slash is ignored). */
  readonly apiUrl: string;
  /** OpenID Connect issuer the dashboard signs in with (discovery at `${issuer}/.well-known/openid-configuration`). */
  readonly issuer: string;
  /** The dashboard's client id at the issuer: the audience of the sessions the API accepts. */
  readonly clientId: string;
  /**
   * Where to send the browser to end the issuer's session, when the issuer's discovery document has no
   * `end_session_endpoint` (Cognito's managed login has its own `/logout`). Default: the discovery document's.
   */
  readonly signOutUrl?: string;
}

/** The origin of a URL, e.g. `https://idp.example.com` of `https://idp.example.com/realms/x`. */
const originOf = (url: string): string => new URL(url).origin;

/**
 * The Content-Security-Policy of the dashboard's pages: its own scripts and styles only, and requests
 * to exactly the API and the identity provider (`connectTo` lists their URLs; only origins count).
 */
export const dashboardContentSecurityPolicy = (connectTo: readonly string[]): string =>
  dashboardContentSecurityPolicyOfOrigins(connectTo.map(originOf));

/**
 * The same policy for origins taken as given, not parsed: the stack's are deploy-time values
 * (`https://${restApiId}.execute-api...`) that no URL parser can read before CloudFormation resolves them.
 */
export const dashboardContentSecurityPolicyOfOrigins = (origins: readonly string[]): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${[...new Set(origins)].join(' ')}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

/**
 * How long a browser keeps to HTTPS for the dashboard's host once it has seen it, in seconds (one year).
 * Browsers ignore the header over plain HTTP, so `npm start` may send it too.
 */
export const DASHBOARD_HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * The other security headers of every dashboard answer, as `name: value`: HTTPS only (with subdomains), no
 * MIME sniffing, never in a frame, and no `Referer` (the page's URL carries the sign-in's authorization code).
 */
export const dashboardSecurityHeaders = {
  'Strict-Transport-Security': `max-age=${DASHBOARD_HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
} as const;
