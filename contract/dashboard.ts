/**
 * What the web dashboard learns at run time and the headers it is served with, alike from
 * `npm start` and from the stack's CloudFront distribution: one build serves every deployment.
 */

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
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${[...new Set(connectTo.map(originOf))].join(' ')}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
