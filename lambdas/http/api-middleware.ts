import { corsHeaders } from '@contract/cors';
import { ErrorText } from '@contract/errors';
import { MAX_BODY_BYTES } from '@contract/limits';
import { findRoute } from '@contract/routes';
import { ApiError, BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '@lambdas/domain/errors';
import { type Principal, principalFromContext } from '@lambdas/domain/principal';
import { optionalUrlEnv } from '@lambdas/env';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { errorResponse } from './errors';
import { logger } from './logger';
import { metricFields } from './metrics';

/** Headers that let the configured dashboard origin read every answer (none when there is none). */
const dashboardOrigin = optionalUrlEnv('DASHBOARD_ORIGIN');
const crossOriginHeaders = dashboardOrigin ? corsHeaders(dashboardOrigin) : undefined;

/** The response with the cross-origin headers, when a dashboard origin is configured. */
const withCrossOrigin = (response: APIGatewayProxyResult): APIGatewayProxyResult =>
  crossOriginHeaders ? { ...response, headers: { ...response.headers, ...crossOriginHeaders } } : response;

/** The event a route handler receives: the principal, its validated path parameters and body. */
export interface ApiEvent<TBody = undefined, TParams = Record<string, never>> extends APIGatewayProxyEvent {
  principal: Principal;
  params: TParams;
  input: TBody;
}

const header = (event: APIGatewayProxyEvent, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  const key = Object.keys(event.headers ?? {}).find((candidate) => candidate.toLowerCase() === wanted);
  return key === undefined ? undefined : event.headers[key];
};

const readJsonBody = (event: APIGatewayProxyEvent): unknown => {
  const raw = event.body ?? '';
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES) throw new PayloadTooLargeError();
  const contentType = header(event, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') throw new UnsupportedMediaTypeError();
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError(ErrorText.malformedJson);
  }
};

/**
 * Options of every route's middy instance. Its early-timeout race (a timer and an AbortController
 * per invocation, about 10 µs) is off: every DynamoDB call ends within about 3.3 s
 * (lambdas/data/client.ts), well inside the function's 10 s timeout.
 */
export const MIDDY_OPTIONS = { timeoutEarlyInMillis: 0 } as const;

/** What a route declares about its input. */
export interface ApiInput<TBody, TParams> {
  /**
   * Check of the parsed JSON body (lambdas/http/bodies), which returns the body the handler gets or
   * throws `Validation failed` with its details; routes without one ignore any body.
   */
  readonly body?: (body: unknown) => TBody;
  /**
   * Path parameters: the raw (still percent-encoded, as API Gateway passes them) values are decoded
   * and handed to this function, which validates them and throws the route's own not-found error.
   */
  readonly params?: (raw: Record<string, string>) => TParams;
}

/**
 * The one middleware of every route: the principal first (fail closed), then path parameters, then
 * the body (size, content type, JSON, its check), and one mapping of every error to its response.
 */
export const apiMiddleware = <TBody, TParams>(
  input: ApiInput<TBody, TParams> = {},
): MiddlewareObj<ApiEvent<TBody, TParams>, APIGatewayProxyResult> => ({
  before: (request) => {
    (request.internal as Record<string, unknown>).startedAt = performance.now();
    const event = request.event;
    event.principal = principalFromContext(event.requestContext?.authorizer);
    if (input.params) {
      const decoded: Record<string, string> = {};
      for (const [name, value] of Object.entries(event.pathParameters ?? {})) {
        try {
          decoded[name] = decodeURIComponent(value ?? '');
        } catch {
          decoded[name] = '';
        }
      }
      event.params = input.params(decoded);
    }
    if (input.body) event.input = input.body(readJsonBody(event));
  },
  after: (request) => {
    if (request.response) request.response = withCrossOrigin(request.response);
    logSummary(request.event, request.response, undefined, request.internal);
  },
  onError: (request) => {
    request.response = withCrossOrigin(errorResponse(request.error));
    logSummary(request.event, request.response, request.error, request.internal);
  },
});

/**
 * The one summary line per request: who (user and token id, never the credential), what (route and
 * status), why it was refused (the contract's error text), how long it took, and the request id API
 * Gateway also gave the authorizer, so the two lines of a request can be joined. Successful state
 * changes and a container's first request are counted as metrics in the same line.
 */
const logSummary = (
  event: Partial<ApiEvent<unknown, unknown>>,
  response: APIGatewayProxyResult | null | undefined,
  error: unknown,
  internal: object,
): void => {
  const status = response?.statusCode ?? 500;
  const route = findRoute(event.httpMethod ?? '', event.resource ?? '');
  const { startedAt } = internal as { startedAt?: number };
  logger.info('request', {
    requestId: event.requestContext?.requestId,
    traceId: process.env._X_AMZN_TRACE_ID,
    route: route?.handler,
    method: event.httpMethod,
    status,
    outcome: status < 400 ? 'ok' : status < 500 ? 'rejected' : 'failed',
    reason: error instanceof ApiError ? error.message : undefined,
    principal: event.principal?.kind,
    userId: event.principal?.userId,
    tokenId: event.principal?.tokenId,
    latencyMs: startedAt === undefined ? undefined : Math.round((performance.now() - startedAt) * 1000) / 1000,
    ...metricFields(
      route?.handler ?? 'unknown',
      status < 300 && route?.successMetric ? [{ name: route.successMetric }] : [],
    ),
  });
};
