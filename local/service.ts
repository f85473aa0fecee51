import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_DOCUMENT_PATH, apiDocumentBody } from '@lib/api-document';
import { corsHeaders } from '@lib/cors';
import { createDevIdp, DEV_AUDIENCE, DEV_IDP_PATH, type DevIdp } from './dev-idp';
import {
  type GatewayHandlers,
  type GatewayResult,
  handleRequest,
  loadHandlers,
  readRequest,
  writeResult,
} from './gateway';

/** Where the local service listens and which DynamoDB it uses. */
export interface LocalServiceOptions {
  /** DynamoDB endpoint (DynamoDB Local); the table must exist. */
  readonly dynamoEndpoint: string;
  readonly tableName: string;
  /** Port to listen on; 0 picks a free one. */
  readonly port: number;
  /** Address to listen on; `::` serves IPv4 and IPv6 loopback alike. */
  readonly host: string;
  /** Keeps the development identity provider's key between runs. */
  readonly dataDir?: string;
  /** Where the authorizer fetches session keys; default: the development identity provider's JWKS. */
  readonly sessionJwksUrl?: string;
  /** A dashboard origin allowed to call across origins, as the stack's `dashboardOrigin`; default: none. */
  readonly dashboardOrigin?: string;
}

/** The running local service. */
export interface LocalService {
  readonly baseUrl: string;
  readonly port: number;
  readonly idp: DevIdp;
  close(): Promise<void>;
}

const jsonResult = (statusCode: number, body: unknown): GatewayResult => ({
  statusCode,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** `GET /api/v1/openapi.json`, unauthenticated: the same bytes the stack's mock integration answers with. */
const apiDocumentRoute = (method: string, path: string, dashboardOrigin?: string): GatewayResult | undefined =>
  method === 'GET' && path === API_DOCUMENT_PATH
    ? {
        statusCode: 200,
        headers: { 'Content-Type': 'application/json', ...(dashboardOrigin && corsHeaders(dashboardOrigin)) },
        body: apiDocumentBody(),
      }
    : undefined;

const devIdpRoute = async (req: IncomingMessage, path: string, body: Buffer, idp: DevIdp) => {
  if (req.method === 'GET' && path === `${DEV_IDP_PATH}/.well-known/jwks.json`) return jsonResult(200, idp.jwks);
  if (req.method === 'POST' && path === `${DEV_IDP_PATH}/token`) {
    let email: unknown;
    try {
      email = (JSON.parse(body.toString('utf8')) as { email?: unknown }).email;
    } catch {
      email = undefined;
    }
    if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email.trim())) {
      return jsonResult(400, { success: false, error: 'Send {"email": "<address>"}' });
    }
    return jsonResult(200, { token: await idp.issue(email) });
  }
  return undefined;
};

/**
 * Starts the API on a local HTTP server: the development identity provider under `/_dev/idp`,
 * everything else through the local gateway into the same handler modules the stack deploys.
 * Handler modules read their environment when loaded, so they are loaded after it is set.
 */
export const startLocalService = async (options: LocalServiceOptions): Promise<LocalService> => {
  let handlers: GatewayHandlers | undefined;
  let idp: DevIdp | undefined;
  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        const request = await readRequest(req);
        const result =
          apiDocumentRoute(request.method, request.path, options.dashboardOrigin) ??
          (idp && (await devIdpRoute(req, request.path, request.body, idp))) ??
          (handlers
            ? await handleRequest(request, handlers, { dashboardOrigin: options.dashboardOrigin })
            : jsonResult(503, { success: false }));
        writeResult(res, result);
      } catch {
        writeResult(res, jsonResult(500, { success: false, error: 'Internal server error' }));
      }
    })();
  });
  server.keepAliveTimeout = 5_000;
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const issuer = `${baseUrl}${DEV_IDP_PATH}`;

  Object.assign(process.env, {
    TABLE_NAME: options.tableName,
    DYNAMODB_ENDPOINT: options.dynamoEndpoint,
    SESSION_ISSUER: issuer,
    SESSION_AUDIENCE: DEV_AUDIENCE,
    SESSION_JWKS_URL: options.sessionJwksUrl ?? `${issuer}/.well-known/jwks.json`,
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    // DynamoDB Local accepts any credentials; these keep the SDK from looking for real ones.
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  if (options.dashboardOrigin) process.env.DASHBOARD_ORIGIN = options.dashboardOrigin;
  else delete process.env.DASHBOARD_ORIGIN;
  idp = await createDevIdp(issuer, options.dataDir);
  handlers = await loadHandlers();

  return {
    baseUrl,
    port,
    idp,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};
