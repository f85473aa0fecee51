import { extname } from 'node:path';
import { SHARE_PATH_PREFIX } from '@client/share-link';
import {
  DASHBOARD_CONFIG_PATH,
  type DashboardConfig,
  dashboardContentSecurityPolicy,
  dashboardSecurityHeaders,
} from '@contract/dashboard';
import { dashboardFiles } from '../dashboard/build';
import type { GatewayResult } from './gateway';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/** What the dashboard is told locally: the API and, unless another issuer is trusted, the development one. */
export interface LocalDashboardOptions {
  readonly issuer: string;
  readonly clientId: string;
}

/**
 * Whether `path` is a share's link page, `/s/<id>`: the dashboard's page itself (a deep link), which
 * reads the id from its address. Any one segment: the page says when it names no share.
 */
export const isShareLinkPath = (path: string): boolean =>
  path.startsWith(SHARE_PATH_PREFIX) &&
  path.length > SHARE_PATH_PREFIX.length &&
  !path.slice(SHARE_PATH_PREFIX.length).includes('/');

/** Answers a dashboard request, or undefined for a path that is not the dashboard's. */
export type DashboardRoute = (method: string, path: string, origin: string) => GatewayResult | undefined;

/**
 * The dashboard at `/` (and a share's link page, `/s/<id>`, as the stack's distribution serves it), next to the API on the same origin (so no CORS locally), with the headers the
 * stack's CloudFront distribution sends. It is built on the first request, not at start: tests that
 * start the service in-process never open it. `origin` is the address the browser used (a loopback
 * name the service checked), so the API the dashboard calls is its own origin.
 */
export const localDashboard = (options: LocalDashboardOptions): DashboardRoute => {
  let files: ReadonlyMap<string, Uint8Array> | undefined;
  const headers = (path: string): Record<string, string> => ({
    'Content-Type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
    'Content-Security-Policy': dashboardContentSecurityPolicy([options.issuer]),
    ...dashboardSecurityHeaders,
    'Cache-Control': 'no-cache',
  });
  return (method, path, origin) => {
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    if (path === DASHBOARD_CONFIG_PATH) {
      const config: DashboardConfig = { apiUrl: origin, issuer: options.issuer, clientId: options.clientId };
      return { statusCode: 200, headers: headers(path), body: JSON.stringify(config) };
    }
    const name = path === '/' || isShareLinkPath(path) ? 'index.html' : path.slice(1);
    if (name.includes('/')) return undefined;
    files ??= dashboardFiles();
    const contents = files.get(name);
    if (!contents) return undefined;
    return { statusCode: 200, headers: headers(name), body: Buffer.from(contents).toString('utf8') };
  };
};
