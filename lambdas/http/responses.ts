import { JSON_HEADERS, NO_STORE_HEADERS } from '@contract/headers';
import type { RouteAnswer, RouteContract } from '@contract/route';
import type { APIGatewayProxyResult } from 'aws-lambda';

/** A JSON response, with the headers of every answer of the API. */
export const json = (
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult => ({
  statusCode,
  headers: Object.assign({}, JSON_HEADERS, headers),
  body: JSON.stringify(body),
});

/** The error body of the contract: `{success: false, error}` (+ `details` for validation). */
export const errorBody = (error: string, details?: unknown) => ({
  success: false as const,
  error,
  ...(details ? { details } : {}),
});

/** A success body that created what it describes: answered 201 by a route whose contract says `success.created`. */
export class Created<T> {
  constructor(readonly body: T) {}
}

/**
 * A conditional route's success (`conditional` in its contract) with its entity tag: the body, or none
 * when the request's `If-None-Match` holds the tag (answered 304).
 */
export class Tagged<T> {
  constructor(
    readonly etag: string,
    readonly body: T | undefined,
  ) {}
}

/**
 * A route's success answer: its contract's status (201 for a `Created` body of a route that may
 * create), with a body its response schema describes; a `Tagged` one with its `ETag`, or 304 with
 * no body.
 */
export const reply = <R extends RouteContract>(
  route: R,
  answer: RouteAnswer<R> | Created<RouteAnswer<R>> | Tagged<RouteAnswer<R>>,
): APIGatewayProxyResult => {
  if (answer instanceof Tagged) {
    if (!route.conditional) throw new Error(`Route ${route.handler} answers no ETag`);
    const etag = { ETag: answer.etag };
    if (answer.body === undefined) return { statusCode: 304, headers: { ...NO_STORE_HEADERS, ...etag }, body: '' };
    return json(route.success.status, answer.body, etag);
  }
  if (!(answer instanceof Created)) return json(route.success.status, answer);
  if (route.success.created === undefined) throw new Error(`Route ${route.handler} answers no 201`);
  return json(201, answer.body);
};
