import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { bodyIsOptional } from '@contract/body';
import { corsHeaders } from '@contract/cors';
import { ErrorText } from '@contract/errors';
import { MAX_BODY_BYTES } from '@contract/limits';
import type { RouteContract, RouteInput } from '@contract/route';
import { originOf, type RequestOrigin, requestOrigin, systemOrigin } from '@lambdas/domain/audit';
import {
  ApiError,
  BadRequestError,
  ForbiddenError,
  IdentityNotAcceptedError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import { optionalUrlEnv } from '@lambdas/env';
import { logger, metrics, publishMetrics } from '@lambdas/observability';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type * as z from 'zod/mini';
import { principalFromContext } from './authorizer-context';
import { errorResponse } from './errors';

/** Headers that let the configured dashboard origin read every answer (none when there is none). */
const dashboardOrigin = optionalUrlEnv('DASHBOARD_ORIGIN');
const crossOriginHeaders = dashboardOrigin ? corsHeaders(dashboardOrigin) : undefined;

/** The response with the cross-origin headers, when a dashboard origin is configured. */
const withCrossOrigin = (response: APIGatewayProxyResult): APIGatewayProxyResult =>
  crossOriginHeaders
    ? Object.assign({}, response, { headers: Object.assign({}, response.headers, crossOriginHeaders) })
    : response;

/** The event a route handler receives: its contract, the principal, and its path parameters and body as the contract gives them. */
export interface ApiEvent<R extends RouteContract> extends APIGatewayProxyEvent {
  route: R;
  /** The caller the authorizer passed on (none on a sign-in, which has no authorizer). */
  principal: Principal;
  /** Who called from where, as an audit event records it. */
  origin: RequestOrigin;
  params: RouteInput<R>['params'];
  query: RouteInput<R>['query'];
  input: RouteInput<R>['body'];
}

/** A request header's value by its name in any case. */
export const header = (event: APIGatewayProxyEvent, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  const key = Object.keys(event.headers ?? {}).find((candidate) => candidate.toLowerCase() === wanted);
  return key === undefined ? undefined : event.headers[key];
};

/**
 * The JSON body; when the body is `optional`, `undefined` for a request with neither a body nor a
 * content type (as `curl -X POST` sends it).
 */
const readJsonBody = (event: APIGatewayProxyEvent, optional: boolean, maxBytes: number): unknown => {
  const raw = event.body ?? '';
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw new PayloadTooLargeError();
  const contentType = header(event, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (optional && text === '' && contentType === undefined) return undefined;
  if (contentType !== 'application/json') throw new UnsupportedMediaTypeError();
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError(ErrorText.malformedJson);
  }
};

/**
 * Options of every route's middy instance. Its early-timeout race (a timer and an AbortController
 * per invocation, measurable in warm CPU) is off: every DynamoDB call gives up after three
 * one-second attempts (lambdas/data/client.ts), well inside the function's 10 s timeout.
 */
export const MIDDY_OPTIONS = { timeoutEarlyInMillis: 0 } as const;

/** A schema's issues as the contract's validation details. */
const detailsOf = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));

/**
 * The path parameters, percent-decoded (API Gateway passes them encoded), as the route's schema gives
 * them. A malformed one names nothing: the 404 its contract gives that parameter (or the 400 with
 * details it gives a name to create).
 */
const validParams = (route: RouteContract, schema: z.ZodMiniObject, raw: APIGatewayProxyEvent['pathParameters']) => {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    try {
      decoded[name] = decodeURIComponent(value ?? '');
    } catch {
      decoded[name] = '';
    }
  }
  const parsed = schema.safeParse(decoded);
  if (parsed.success) return parsed.data;
  const name = String(parsed.error.issues[0]?.path[0] ?? '');
  const text = route.paramErrors?.[name] ?? ErrorText.notFound;
  if (text === ErrorText.validation) throw new BadRequestError(text, detailsOf(parsed.error.issues));
  throw new NotFoundError(text);
};

/**
 * The one middleware of every route, which enforces what its contract states: the principal first
 * (fail closed) and whether an API token may call the route at all, then the path parameters, the
 * query and the body (size, content type, JSON) against the route's schemas; and one mapping of every
 * error to its response.
 */
export const apiMiddleware = <R extends RouteContract>(route: R): MiddlewareObj<ApiEvent<R>, APIGatewayProxyResult> => {
  const contract = (): R => route;
  /** Whether the route's body schema takes no body; asked once (a failing parse builds its issues). */
  let optionalBody: boolean | undefined;
  return {
    before: (request) => {
      (request.internal as Record<string, unknown>).startedAt = performance.now();
      const event = request.event;
      event.route = route;
      const facts = {
        sourceIp: event.requestContext.identity?.sourceIp,
        userAgent: event.requestContext.identity?.userAgent,
        requestId: event.requestContext.requestId,
      };
      if (route.signIn) {
        // No authorizer ran and no one is signed in yet: the sign-in proves who calls and records them.
        event.origin = originOf(systemOrigin.actor, facts);
      } else {
        event.principal = principalFromContext(event.requestContext?.authorizer);
        // The authorizer refuses a service account's token on a route not its, and an API token on a
        // session-only route, already; these hold if it ever did not.
        if (event.principal.kind === 'serviceAccount' && route.serviceAccounts !== true) {
          throw new ForbiddenError(ErrorText.serviceAccountForbidden);
        }
        if (route.tokenScope === null && event.principal.kind !== 'session') {
          throw new ForbiddenError(ErrorText.sessionRequired);
        }
        event.origin = requestOrigin(event.principal, facts);
      }
      const { params, query, body } = route.schemas();
      if (params) event.params = validParams(route, params, event.pathParameters) as RouteInput<R>['params'];
      if (query) {
        const parsed = query.safeParse(event.queryStringParameters ?? {});
        if (!parsed.success) throw new BadRequestError(ErrorText.validation, detailsOf(parsed.error.issues));
        event.query = parsed.data as RouteInput<R>['query'];
      }
      if (body) {
        optionalBody ??= bodyIsOptional(body);
        const parsed = body.safeParse(readJsonBody(event, optionalBody, route.maxBodyBytes ?? MAX_BODY_BYTES));
        if (!parsed.success) throw new BadRequestError(ErrorText.validation, detailsOf(parsed.error.issues));
        event.input = parsed.data as RouteInput<R>['body'];
      }
    },
    after: (request) => {
      if (request.response) request.response = withCrossOrigin(request.response);
      logSummary(contract(), request.event, request.response, undefined, request.internal);
    },
    onError: (request) => {
      request.response = withCrossOrigin(errorResponse(request.error));
      logSummary(contract(), request.event, request.response, request.error, request.internal);
    },
  };
};

/**
 * The one summary line per request: who (user and token id, never the credential), what (route and
 * status), why it was refused (the contract's error text), how long it took, and the request id API
 * Gateway also gave the authorizer, so the two lines of a request can be joined. A successful state
 * change is counted as the route's metric, and a container's first request as its cold start.
 */
const logSummary = (
  route: RouteContract,
  event: Partial<Pick<ApiEvent<RouteContract>, 'principal' | 'requestContext' | 'httpMethod'>>,
  response: APIGatewayProxyResult | null | undefined,
  error: unknown,
  internal: object,
): void => {
  const status = response?.statusCode ?? 500;
  const { startedAt } = internal as { startedAt?: number };
  // Only the attributes that hold a value: the logger would walk and drop the others on every request.
  const line: Record<string, unknown> = {
    route: route.handler,
    method: event.httpMethod,
    status,
    outcome: status < 400 ? 'ok' : status < 500 ? 'rejected' : 'failed',
  };
  if (event.requestContext?.requestId) line.requestId = event.requestContext.requestId;
  if (error instanceof ApiError) line.reason = error.message;
  // Why a sign-in was refused: the log's to tell, never the caller's.
  if (error instanceof IdentityNotAcceptedError) line.refusal = error.refusal;
  if (event.principal) {
    line.principal = event.principal.kind;
    line.userId = event.principal.userId;
    if (event.principal.tokenId) line.tokenId = event.principal.tokenId;
  }
  if (startedAt !== undefined) line.latencyMs = Math.round((performance.now() - startedAt) * 1000) / 1000;
  logger.info('request', line);
  if (status < 300 && route.successMetric) metrics.addMetric(route.successMetric, MetricUnit.Count, 1);
  publishMetrics(route.handler);
};
