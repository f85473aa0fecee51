import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { RouteAnswer, RouteContract, RouteInput } from '@contract/route';
import type { RequestOrigin } from '@lambdas/domain/audit';
import { clock } from '@lambdas/domain/clock';
import type { Principal } from '@lambdas/domain/principal';
import { logger, tracer } from '@lambdas/observability';
import middy from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { type ApiEvent, apiMiddleware, header, MIDDY_OPTIONS } from './api-middleware';
import { type Created, reply, type Tagged } from './responses';

/** What a route's function is given: its caller and its input as the contract validated them. */
export interface RouteRequest<R extends RouteContract> {
  /** The caller (none on a sign-in, which proves who calls itself). */
  readonly principal: Principal;
  /** Who called from where, as an audit event records it. */
  readonly origin: RequestOrigin;
  readonly params: RouteInput<R>['params'];
  readonly query: RouteInput<R>['query'];
  readonly input: RouteInput<R>['body'];
  /** The request's `If-None-Match` (a conditional route answers 304 when it holds the answer's tag). */
  readonly ifNoneMatch: string | undefined;
  /** The request's instant, from the one clock. */
  readonly now: Date;
  /** The host name the caller reached the API at, as API Gateway saw it (`requestContext.domainName`). */
  readonly host: string | undefined;
}

/**
 * A route's Lambda handler: the shared middleware enforces what the contract states (who may call,
 * body size and form, parameters and query) and maps every error to its answer; `serve` calls the
 * route's use case and returns the success body, answered with the contract's status (or, wrapped in
 * `Created`, 201).
 */
export const defineRoute =
  <R extends RouteContract>(route: R) =>
  (serve: (request: RouteRequest<R>) => Promise<RouteAnswer<R> | Created<RouteAnswer<R>> | Tagged<RouteAnswer<R>>>) =>
    middy<ApiEvent<R>, APIGatewayProxyResult>(
      async (event: ApiEvent<R>) =>
        reply(
          route,
          await serve({
            principal: event.principal,
            origin: event.origin,
            params: event.params,
            query: event.query,
            input: event.input,
            ifNoneMatch: route.conditional ? header(event, 'if-none-match') : undefined,
            now: clock.now(),
            host: event.requestContext?.domainName,
          }),
        ),
      MIDDY_OPTIONS,
    )
      .use(captureLambdaHandler(tracer, { captureResponse: false }))
      .use(injectLambdaContext(logger))
      .use(apiMiddleware(route));
