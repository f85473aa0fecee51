import { once } from 'node:events';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, isIP, isIPv6 } from 'node:net';
import { join } from 'node:path';
import { corsHeaders } from '@contract/cors';
import { ErrorText } from '@contract/errors';
import { JSON_HEADERS } from '@contract/headers';
import { RETRY_AFTER_SECONDS } from '@contract/limits';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '@contract/rate-limit';
import { routeRulesJson } from '@contract/route-table';
import { STS_URL_ENV } from '@lambdas/outbound/aws-caller-identity';
import { API_DOCUMENT_PATH, apiDocumentBody } from '@lib/api-document';
import { type DashboardRoute, localDashboard } from './dashboard-site';
import { WRAPPING_KEY_FILE } from './data-dir';
import { createDevIdp, DEV_AUDIENCE, DEV_IDP_PATH, type DevIdp, isDevEmail } from './dev-idp';
import { createDevOidc, type DevOidcHandler } from './dev-oidc';
import { createDevSts, DEV_STS_PATH, type DevSts } from './dev-sts';
import {
  createDevWorkloadIssuer,
  DEV_WORKLOAD_PATH,
  type DevWorkloadIssuer,
  devWorkloadRoute,
  isDevWorkloadPath,
} from './dev-workload';
import {
  type GatewayHandlers,
  type GatewayResult,
  handleRequest,
  loadHandlers,
  readRequest,
  writeResult,
} from './gateway';
import { createCredentialRateLimiter } from './rate-limiter';
import { LOOPBACK_HOSTS } from './start-config';

/** Where the local service listens. */
export interface ListenOptions {
  /** Port to listen on; 0 picks a free one, shared by every host. */
  readonly port: number;
  /**
   * Addresses to listen on, one socket each for the same server; the first must work, a later one
   * the machine lacks (no IPv6) is skipped. Default: both loopbacks, `127.0.0.1` and `::1`.
   */
  readonly hosts?: readonly string[];
  /** A dashboard origin allowed to call across origins, as the stack's `dashboardOrigin`; default: none. */
  readonly dashboardOrigin?: string;
  /** Receives one line per answered request: method, path, status and milliseconds; default: none. */
  readonly requestLog?: (line: string) => void;
  /** Requests one credential may send per minute, as the stack's `rateLimitPerMinute`; default: 600. */
  readonly rateLimitPerMinute?: number;
}

/** An OpenID Connect issuer whose sessions the service trusts instead of the development identity provider's. */
export interface TrustedIssuer {
  readonly issuer: string;
  readonly audience: string;
  /** Where its keys are; default: the `jwks_uri` of its discovery document. */
  readonly jwksUrl?: string;
}

/** Which DynamoDB the service uses and whom it trusts. */
export interface ServeOptions {
  /** DynamoDB endpoint (DynamoDB Local); the table must exist. */
  readonly dynamoEndpoint: string;
  readonly tableName: string;
  /**
   * Keeps the development identity provider's key and the local wrapping key of the secrets
   * (`WRAPPING_KEY_FILE`) between runs.
   */
  readonly dataDir?: string;
  /** Where the authorizer fetches the development identity provider's keys; default: its JWKS route. */
  readonly sessionJwksUrl?: string;
  /** Trust this issuer; then no development identity provider is served. */
  readonly trustedIssuer?: TrustedIssuer;
}

/** Where the local service listens, which DynamoDB it uses and whom it trusts. */
export interface LocalServiceOptions extends ListenOptions, ServeOptions {}

/** The running local service. */
export interface RunningLocalService {
  readonly baseUrl: string;
  readonly port: number;
  /** The development identity provider, absent when the service trusts another issuer. */
  readonly idp?: DevIdp;
  /** The development workload issuer (`/_dev/workload`), whose tokens `oidc` trust rules may trust. */
  readonly workload: DevWorkloadIssuer;
  /** The STS stand-in, whose key pair signs AWS sign-ins locally. */
  readonly sts: DevSts;
  close(): Promise<void>;
}

/** The running local service with its development identity provider. */
export interface LocalService extends RunningLocalService {
  readonly idp: DevIdp;
}

/** Listening sockets that answer 503 until `serve` has loaded the handlers. */
export interface LocalListener {
  readonly baseUrl: string;
  readonly port: number;
  serve(options: ServeOptions): Promise<RunningLocalService>;
  close(): Promise<void>;
}

/** The functions' log level locally when LOG_LEVEL is unset: their warnings and errors only. */
const LOCAL_LOG_LEVEL = 'warn';

const jsonResult = (statusCode: number, body: unknown): GatewayResult => ({
  statusCode,
  headers: JSON_HEADERS,
  body: JSON.stringify(body),
});

/**
 * `GET /api/v1/openapi.json`, unauthenticated: the same bytes the stack's mock integration answers
 * with, naming the dashboard at `DASHBOARD_ORIGIN` when it is served elsewhere, else at `origin`, the
 * origin this service serves it on for the request.
 */
const apiDocumentRoute = (
  method: string,
  path: string,
  dashboardOrigin: string | undefined,
  origin: string,
): GatewayResult | undefined =>
  method === 'GET' && path === API_DOCUMENT_PATH
    ? {
        statusCode: 200,
        headers: { ...JSON_HEADERS, ...(dashboardOrigin && corsHeaders(dashboardOrigin)) },
        body: apiDocumentBody(`${dashboardOrigin ?? origin}/`),
      }
    : undefined;

const unavailable: GatewayResult = {
  statusCode: 503,
  headers: { ...JSON_HEADERS, 'Retry-After': RETRY_AFTER_SECONDS },
  body: JSON.stringify({ success: false, error: ErrorText.unavailable }),
};

const urlHost = (host: string): string => (isIPv6(host) ? `[${host}]` : host);

/**
 * Host names under which the development identity provider answers: loopback names, and the IP
 * addresses it listens on. A page that rebinds its own DNS name to 127.0.0.1 still sends its name as
 * `Host`, so it gets no session; an IP literal cannot be rebound.
 */
const idpHostnames = (hosts: readonly string[]): ReadonlySet<string> =>
  new Set(['localhost', '127.0.0.1', '[::1]', ...hosts.filter((host) => isIP(host)).map(urlHost)]);

const hostnameOf = (hostHeader: string | undefined): string | undefined =>
  /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d*)?$/i.exec(hostHeader ?? '')?.[1]?.toLowerCase();

const isDevIdpPath = (path: string): boolean => path === DEV_IDP_PATH || path.startsWith(`${DEV_IDP_PATH}/`);

const JWKS_PATH = `${DEV_IDP_PATH}/.well-known/jwks.json`;
const TOKEN_PATH = `${DEV_IDP_PATH}/token`;

/** Paths the development identity provider's own JSON routes answer; the rest of its paths are OpenID Connect's. */
const isDevIdpJsonPath = (path: string): boolean => path === JWKS_PATH || path === TOKEN_PATH;

const wrongHost = jsonResult(403, {
  success: false,
  error: 'The development identity provider answers only to localhost, 127.0.0.1 or [::1]',
});

const wrongWorkloadHost = jsonResult(403, {
  success: false,
  error: 'The development workload issuer answers only to localhost, 127.0.0.1 or [::1]',
});

const devIdpRoute = async (
  req: IncomingMessage,
  path: string,
  body: Buffer,
  idp: DevIdp,
): Promise<GatewayResult | undefined> => {
  if (req.method === 'GET' && path === JWKS_PATH) return jsonResult(200, idp.jwks);
  if (req.method === 'POST' && path === TOKEN_PATH) {
    let email: unknown;
    try {
      email = (JSON.parse(body.toString('utf8')) as { email?: unknown }).email;
    } catch {
      email = undefined;
    }
    if (typeof email !== 'string' || !isDevEmail(email)) {
      return jsonResult(400, { success: false, error: 'Send {"email": "<address>"}' });
    }
    return jsonResult(200, { token: await idp.issue(email) });
  }
  return undefined;
};

const listenOn = async (server: Server, port: number, host: string): Promise<number> => {
  server.listen(port, host);
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => {
      throw error;
    }),
  ]);
  return (server.address() as AddressInfo).port;
};

const closeServer = async (server: Server): Promise<void> => {
  if (!server.listening) return;
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
};

const isUnavailableAddress = (error: unknown): boolean =>
  ['EADDRNOTAVAIL', 'EAFNOSUPPORT'].includes((error as { code?: string }).code ?? '');

/** Attempts at a port free on every host when the first host's free port is taken on another. */
const PORT_ATTEMPTS = 5;

/** One server per host, all on one port: the first host's (a free one when `port` is 0). */
const listenAll = async (
  handler: RequestListener,
  port: number,
  hosts: readonly string[],
): Promise<{ servers: Server[]; port: number }> => {
  for (let attempt = 1; ; attempt++) {
    const servers: Server[] = [];
    try {
      let bound = port;
      for (const [index, host] of hosts.entries()) {
        const server = createServer(handler);
        server.keepAliveTimeout = 5_000;
        try {
          bound = await listenOn(server, index === 0 ? port : bound, host);
          servers.push(server);
        } catch (error) {
          if (index === 0 || !isUnavailableAddress(error)) throw error;
        }
      }
      return { servers, port: bound };
    } catch (error) {
      await Promise.all(servers.map(closeServer));
      const retry = port === 0 && attempt < PORT_ATTEMPTS && (error as { code?: string }).code === 'EADDRINUSE';
      if (!retry) throw error;
    }
  }
};

/**
 * Tells `log` of a request once it is answered, in one line for a person at the console (the
 * deployed API's access log and the functions' JSON logs are for machines): `GET /api/v1/me 200 4 ms`.
 * The query string stays out, as the access log keeps it out.
 */
const logAnswer = (req: IncomingMessage, res: ServerResponse, log: (line: string) => void): void => {
  const started = performance.now();
  res.once('finish', () => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    log(`${req.method} ${path} ${res.statusCode} ${Math.round(performance.now() - started)} ms`);
  });
};

/**
 * Binds the local service's sockets before anything slow starts, so a busy port fails at once;
 * until `serve` has loaded the handlers, every request answers 503 with `Retry-After`.
 */
export const listenLocal = async (options: ListenOptions): Promise<LocalListener> => {
  const hosts = options.hosts ?? LOOPBACK_HOSTS;
  const { dashboardOrigin, requestLog } = options;
  const hostnames = idpHostnames(hosts);
  const rateLimiter = createCredentialRateLimiter({
    limit: options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
  });
  let handlers: GatewayHandlers | undefined;
  let idp: DevIdp | undefined;
  let workload: DevWorkloadIssuer | undefined;
  let sts: DevSts | undefined;
  let oidc: Promise<DevOidcHandler> | undefined;
  let dashboard: DashboardRoute | undefined;
  const handler: RequestListener = (req, res) => {
    if (requestLog) logAnswer(req, res, requestLog);
    void (async () => {
      try {
        const path = new URL(req.url ?? '/', 'http://local').pathname;
        const hostname = hostnameOf(req.headers.host);
        const loopbackName = hostname !== undefined && hostnames.has(hostname);
        if (handlers && idp && isDevIdpPath(path)) {
          if (!loopbackName) return writeResult(res, wrongHost);
          if (!isDevIdpJsonPath(path)) {
            oidc ??= createDevOidc({ issuer: idp.issuer, signingJwk: idp.signingJwk, dashboardUrls: dashboardUrls() });
            return await (await oidc)(req, res);
          }
        }
        const request = await readRequest(req);
        // The dashboard calls the API on the origin it was opened from: a loopback name, or the base URL.
        const origin = loopbackName ? `http://${req.headers.host}` : baseUrl;
        const result = !handlers
          ? unavailable
          : (apiDocumentRoute(request.method, request.path, dashboardOrigin, origin) ??
            (idp && (await devIdpRoute(req, request.path, request.body, idp))) ??
            (workload && isDevWorkloadPath(request.path)
              ? loopbackName
                ? await devWorkloadRoute(workload, request.method, request.path, request.body)
                : wrongWorkloadHost
              : undefined) ??
            (sts && request.path === DEV_STS_PATH
              ? await sts.answer({ ...request, body: request.body.toString('utf8') })
              : undefined) ??
            dashboard?.(request.method, request.path, origin) ??
            (await handleRequest(request, handlers, { dashboardOrigin, rateLimiter })));
        writeResult(res, result);
      } catch {
        if (!res.headersSent) writeResult(res, jsonResult(500, { success: false, error: ErrorText.internal }));
      }
    })();
  };
  const { servers, port } = await listenAll(handler, options.port, hosts);
  const first = hosts[0] ?? '127.0.0.1';
  // An unspecified address serves loopback too, and a URL needs an address to connect to.
  const baseUrl = `http://${first === '0.0.0.0' || first === '::' ? '127.0.0.1' : urlHost(first)}:${port}`;
  /** The dashboard's address under every name the development identity provider answers to. */
  const dashboardUrls = () => [...hostnames].map((name) => `http://${name}:${port}/`);
  const close = async () => {
    await Promise.all(servers.map(closeServer));
  };

  /**
   * Handler modules read their environment when loaded, so it is set first. The handlers come last:
   * until they are there, requests keep their 503.
   */
  const serve = async (serveOptions: ServeOptions): Promise<RunningLocalService> => {
    const trusted = serveOptions.trustedIssuer;
    const devIssuer = `${baseUrl}${DEV_IDP_PATH}`;
    // Locally, what a person reads is one line per request (`requestLog`): the functions log warnings
    // and errors only, and write no metrics (their EMF lines), unless LOG_LEVEL asks for more.
    // Powertools' Logger reads POWERTOOLS_LOG_LEVEL first, and takes a level in capitals only
    // (`debug` falls back to INFO). The deployed functions keep the stack's `logLevel` and metrics.
    const quiet = !process.env.LOG_LEVEL;
    const logLevel = process.env.LOG_LEVEL || LOCAL_LOG_LEVEL;
    if (quiet) process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
    Object.assign(process.env, {
      LOG_LEVEL: logLevel,
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL || logLevel.toUpperCase(),
      TABLE_NAME: serveOptions.tableName,
      DYNAMODB_ENDPOINT: serveOptions.dynamoEndpoint,
      SESSION_ISSUER: trusted?.issuer ?? devIssuer,
      SESSION_AUDIENCE: trusted?.audience ?? DEV_AUDIENCE,
      ROUTE_RULES: routeRulesJson(),
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      // DynamoDB Local accepts any credentials; these keep the SDK from looking for real ones.
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    const jwksUrl = trusted ? trusted.jwksUrl : (serveOptions.sessionJwksUrl ?? `${devIssuer}/.well-known/jwks.json`);
    if (jwksUrl) process.env.SESSION_JWKS_URL = jwksUrl;
    else delete process.env.SESSION_JWKS_URL;
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
    if (dashboardOrigin) process.env.DASHBOARD_ORIGIN = dashboardOrigin;
    else delete process.env.DASHBOARD_ORIGIN;
    // Locally a wrapping key stands in for KMS (never a key id from the shell, which would call AWS). With
    // DATA_DIR it is kept there, as the table is, so secrets survive a restart; without, it is random per start.
    delete process.env.SECRETS_KEY_ID;
    if (serveOptions.dataDir) process.env.LOCAL_WRAPPING_KEY_FILE = join(serveOptions.dataDir, WRAPPING_KEY_FILE);
    else delete process.env.LOCAL_WRAPPING_KEY_FILE;
    idp = trusted ? undefined : await createDevIdp(devIssuer, serveOptions.dataDir);
    const workloadIssuer = await createDevWorkloadIssuer(`${baseUrl}${DEV_WORKLOAD_PATH}`, serveOptions.dataDir);
    workload = workloadIssuer;
    // AWS sign-in asks the STS stand-in, whose key pair `npm start` prints, never AWS.
    sts = await createDevSts({ dataDir: serveOptions.dataDir });
    process.env[STS_URL_ENV] = `${baseUrl}${DEV_STS_PATH}`;
    // Trust rules may name the local workload issuer, an http issuer on loopback (never in Lambda).
    process.env.SIGN_IN_ALLOW_LOOPBACK = '1';
    dashboard = localDashboard({
      issuer: trusted?.issuer ?? devIssuer,
      clientId: trusted?.audience ?? DEV_AUDIENCE,
    });
    handlers = loadHandlers();
    return { baseUrl, port, idp, workload: workloadIssuer, sts, close };
  };

  return { baseUrl, port, serve, close };
};

/**
 * Starts the API on local HTTP servers: the development identity provider under `/_dev/idp` (unless
 * another issuer is trusted), everything else through the local gateway into the same handler
 * modules the stack deploys.
 */
export async function startLocalService(
  options: LocalServiceOptions & { trustedIssuer?: undefined },
): Promise<LocalService>;
export async function startLocalService(options: LocalServiceOptions): Promise<RunningLocalService>;
export async function startLocalService(options: LocalServiceOptions): Promise<RunningLocalService> {
  const listener = await listenLocal(options);
  try {
    return await listener.serve(options);
  } catch (error) {
    await listener.close();
    throw error;
  }
}
