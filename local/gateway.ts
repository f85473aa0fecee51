import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders, preflightHeaders } from '@contract/cors';
import { DENIAL_TEXT_VARIABLE, type GatewayResponseType, gatewayResponse } from '@contract/gateway-responses';
import { JSON_HEADERS } from '@contract/headers';
import { RATE_LIMIT_PROBE_HEADER, RATE_LIMIT_PROBE_VALUE, RATE_LIMIT_RETRY_AFTER_SECONDS } from '@contract/rate-limit';
import type { RouteContract } from '@contract/route';
import { methodsByPath, pathParameters, templateFor } from '@contract/route-table';
import { routes } from '@contract/routes';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import type { CredentialRateLimiter } from './rate-limiter';

/** API Gateway's payload limit for REST APIs. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
const STAGE = 'local';
const ACCOUNT = '000000000000';
const API_ID = 'local';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
  context: Context,
) => Promise<APIGatewayAuthorizerResult>;

/** The Lambda handlers the gateway calls: the same modules the stack deploys. */
export interface GatewayHandlers {
  readonly authorizer: AuthorizerHandler;
  readonly routes: ReadonlyMap<RouteContract, ProxyHandler>;
}

/**
 * Loads the authorizer and every route's handler module (after the environment is set), with
 * `require` as contract/routes.ts loads the contracts: npm start runs under tsx's CommonJS hook alone
 * (package.json), which an `import()` of a TypeScript module would bypass.
 */
export const loadHandlers = (): GatewayHandlers => {
  const authorizer = (require('@lambdas/authorizer/handler') as { handler: AuthorizerHandler }).handler;
  const loaded = routes.map((route) => {
    const module = require(`@lambdas/routes/${route.handler}`) as { handler: ProxyHandler };
    return [route, module.handler] as const;
  });
  return { authorizer, routes: new Map(loaded) };
};

/** A request as the gateway received it. */
interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: Record<string, string>;
  readonly multiValueHeaders: Record<string, string[]>;
  readonly body: Buffer;
  readonly sourceIp: string;
}

/** What the gateway answers. */
export interface GatewayResult {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * The route a request reaches: API Gateway picks the resource first (a static segment over a parameter
 * beside it, `templateFor`), then the method on it; a path that fits no resource, or a method its
 * resource lacks, is the same gateway answer.
 */
const matchRoute = (method: string, path: string) => {
  const template = templateFor(methodsByPath.keys(), path);
  const route = routes.find((candidate) => candidate.path === template && candidate.method === method);
  const params = template === undefined ? undefined : pathParameters(template, path);
  return route && params ? { route, params } : undefined;
};

const render = (type: GatewayResponseType, context: Record<string, unknown> = {}, message = ''): GatewayResult => {
  const response = gatewayResponse(type);
  const denial = typeof context.error === 'string' ? context.error : '';
  const body = response.template
    .replace(DENIAL_TEXT_VARIABLE, JSON.stringify(denial).slice(1, -1))
    .replace('$context.error.messageString', JSON.stringify(message));
  return {
    statusCode: response.statusCode ?? 400,
    headers: { ...JSON_HEADERS, ...response.headers },
    body,
  };
};

/**
 * Whether `arn` fits a policy resource where `*` stands for any run of characters. Linear in the
 * length, with no regular expression: a path full of `*` (the request path is part of the policy's
 * resource) would make a backtracking regex take exponential time and stall every request.
 * Taking each middle part at its leftmost place is correct when `*` is the only wildcard.
 */
export const resourceMatches = (pattern: string, arn: string): boolean => {
  const parts = pattern.split('*');
  const first = parts[0] ?? '';
  if (parts.length === 1) return pattern === arn;
  const last = parts[parts.length - 1] ?? '';
  if (first.length + last.length > arn.length || !arn.startsWith(first) || !arn.endsWith(last)) return false;
  let from = first.length;
  const end = arn.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const at = arn.indexOf(part, from);
    if (at === -1 || at + part.length > end) return false;
    from = at + part.length;
  }
  return true;
};

/** API Gateway's evaluation of the returned policy: an explicit Deny wins, else an Allow must match. */
const isAllowed = (result: APIGatewayAuthorizerResult, methodArn: string): boolean => {
  const statements = result.policyDocument?.Statement ?? [];
  const applies = (statement: (typeof statements)[number]) => {
    const resources = 'Resource' in statement ? statement.Resource : undefined;
    const list = Array.isArray(resources) ? resources : [resources];
    return list.some((resource) => typeof resource === 'string' && resourceMatches(resource, methodArn));
  };
  if (statements.some((statement) => statement.Effect === 'Deny' && applies(statement))) return false;
  return statements.some((statement) => statement.Effect === 'Allow' && applies(statement));
};

const isValidContext = (context: unknown): context is Record<string, string | number | boolean> =>
  context === undefined ||
  (typeof context === 'object' &&
    context !== null &&
    Object.values(context).every((value) => ['string', 'number', 'boolean'].includes(typeof value)));

const lambdaContext = (functionName: string): Context =>
  ({
    awsRequestId: randomUUID(),
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:${ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: '256',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;

/** How the emulated API is configured, as the stack would be. */
export interface GatewayOptions {
  /** The dashboard origin allowed to call across origins (`dashboardOrigin`). */
  readonly dashboardOrigin?: string;
  /** The per-credential limit, as the stack's web ACL applies it; default: none. */
  readonly rateLimiter?: CredentialRateLimiter;
}

/** A header's value by its name in any case (Node keeps the client's case). */
const headerValue = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers).find(([candidate]) => candidate.toLowerCase() === name.toLowerCase())?.[1];

/**
 * One request through the gateway, as the web ACL and API Gateway's REST API do it: first the
 * firewall's rate-limit probe and per-credential limit (keyed on the raw `Authorization` value, before
 * any route or authorizer, as WAF sees the request first), then the dashboard's preflights
 * (when a dashboard origin is configured), route match (unknown path or method →
 * MISSING_AUTHENTICATION_TOKEN), identity sources (no Authorization → UNAUTHORIZED without calling
 * the authorizer), the REQUEST authorizer and its policy, then the route's proxy integration. The
 * gateway's own answers carry the CORS headers when a dashboard origin is configured, as the stack's
 * gateway responses do.
 */
export const handleRequest = async (
  request: RawRequest,
  handlers: GatewayHandlers,
  options: GatewayOptions = {},
): Promise<GatewayResult> => {
  const { dashboardOrigin } = options;
  const answer = (type: GatewayResponseType, context?: Record<string, unknown>, message?: string): GatewayResult => {
    const result = render(type, context, message);
    return dashboardOrigin ? { ...result, headers: { ...result.headers, ...corsHeaders(dashboardOrigin) } } : result;
  };
  const tooManyRequests = (retryAfter: string): GatewayResult => {
    const result = answer('THROTTLED');
    return { ...result, headers: { ...result.headers, 'Retry-After': retryAfter } };
  };
  if (headerValue(request.headers, RATE_LIMIT_PROBE_HEADER) === RATE_LIMIT_PROBE_VALUE) {
    return tooManyRequests(RATE_LIMIT_RETRY_AFTER_SECONDS);
  }
  const credential = headerValue(request.headers, 'authorization');
  if (credential && options.rateLimiter) {
    const decision = options.rateLimiter.take(credential);
    if (!decision.allowed) return tooManyRequests(String(decision.retryAfterSeconds));
  }
  if (request.body.length > MAX_PAYLOAD_BYTES) return answer('REQUEST_TOO_LARGE');
  if (dashboardOrigin && request.method === 'OPTIONS') {
    const template = templateFor(methodsByPath.keys(), request.path);
    const methods = template === undefined ? undefined : methodsByPath.get(template);
    if (methods) return { statusCode: 204, headers: preflightHeaders(dashboardOrigin, methods), body: '' };
  }
  const matched = matchRoute(request.method, request.path);
  if (!matched) return answer('MISSING_AUTHENTICATION_TOKEN');
  const { route, params } = matched;
  const requestId = randomUUID();
  const methodArn = `arn:aws:execute-api:local:${ACCOUNT}:${API_ID}/${STAGE}/${request.method}${request.path}`;
  const queryStringParameters = request.query.size ? Object.fromEntries(request.query) : null;
  const multiValueQueryStringParameters = request.query.size
    ? Object.fromEntries([...new Set(request.query.keys())].map((key) => [key, request.query.getAll(key)]))
    : null;
  // Header names keep the client's case (curl sends `User-Agent`); API Gateway finds the agent in any.
  const userAgent = headerValue(request.headers, 'user-agent');
  const identity = { sourceIp: request.sourceIp, userAgent: userAgent ?? null };
  const requestContext = {
    accountId: ACCOUNT,
    apiId: API_ID,
    stage: STAGE,
    requestId,
    resourceId: route.handler,
    resourcePath: route.path,
    httpMethod: request.method,
    path: `/${STAGE}${request.path}`,
    protocol: 'HTTP/1.1',
    requestTimeEpoch: Date.now(),
    // The host the client called, as API Gateway gives its domain name (locally with the port).
    domainName: headerValue(request.headers, 'host') ?? '',
    identity,
  };
  // A sign-in has no authorizer: API Gateway passes the request on as it came, with no context.
  let context: Record<string, unknown> | undefined;
  if (!route.signIn) {
    if (!credential) return answer('UNAUTHORIZED');

    let result: APIGatewayAuthorizerResult;
    try {
      result = await handlers.authorizer(
        {
          type: 'REQUEST',
          methodArn,
          resource: route.path,
          path: request.path,
          httpMethod: request.method,
          headers: request.headers,
          multiValueHeaders: request.multiValueHeaders,
          pathParameters: params,
          queryStringParameters,
          multiValueQueryStringParameters,
          stageVariables: null,
          requestContext,
        } as unknown as APIGatewayRequestAuthorizerEvent,
        lambdaContext('authorizer'),
      );
    } catch (error) {
      return answer(error instanceof Error && error.message === 'Unauthorized' ? 'UNAUTHORIZED' : 'AUTHORIZER_FAILURE');
    }
    if (!result?.principalId || !result.policyDocument || !isValidContext(result.context)) {
      return answer('AUTHORIZER_CONFIGURATION_ERROR');
    }
    context = { ...result.context, principalId: result.principalId };
    if (!isAllowed(result, methodArn)) return answer('ACCESS_DENIED', context);
  }

  const handler = handlers.routes.get(route);
  if (!handler) return answer('DEFAULT_5XX');
  const event: APIGatewayProxyEvent = {
    resource: route.path,
    path: request.path,
    httpMethod: request.method,
    headers: request.headers,
    multiValueHeaders: request.multiValueHeaders,
    queryStringParameters,
    multiValueQueryStringParameters,
    pathParameters: params,
    stageVariables: null,
    requestContext: { ...requestContext, authorizer: context } as unknown as APIGatewayProxyEvent['requestContext'],
    body: request.body.length ? request.body.toString('utf8') : null,
    isBase64Encoded: false,
  };
  try {
    const response = await handler(event, lambdaContext(route.handler));
    if (typeof response?.statusCode !== 'number') return answer('DEFAULT_5XX');
    const headers = Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)]),
    );
    return { statusCode: response.statusCode, headers, body: response.body ?? '' };
  } catch {
    return answer('DEFAULT_5XX');
  }
};

/** Reads a Node request into the gateway's form; the source IP is the TCP peer, never a header. */
export const readRequest = async (req: IncomingMessage): Promise<RawRequest> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_PAYLOAD_BYTES + 1) chunks.push(chunk);
  }
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] ?? '';
    const value = req.rawHeaders[i + 1] ?? '';
    const existing = Object.keys(multiValueHeaders).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name;
    multiValueHeaders[existing] = [...(multiValueHeaders[existing] ?? []), value];
    headers[existing] = value;
  }
  const url = new URL(req.url ?? '/', 'http://local');
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers,
    multiValueHeaders,
    body: Buffer.concat(chunks),
    sourceIp: req.socket.remoteAddress ?? '',
  };
};

/**
 * Writes a gateway result to a Node response; a 304 (a conditional route's answer to a tag that still
 * holds) with no body and no `Content-Length`, which would describe the body it stands for.
 */
export const writeResult = (res: ServerResponse, result: GatewayResult): void => {
  if (result.statusCode === 304) {
    res.writeHead(304, result.headers);
    res.end();
    return;
  }
  res.writeHead(result.statusCode, { ...result.headers, 'Content-Length': Buffer.byteLength(result.body) });
  res.end(result.body);
};
