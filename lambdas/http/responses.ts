import { JSON_HEADERS } from '@contract/headers';
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

/** A route's success answer: its contract's status, with a body its response schema describes. */
export const reply = <R extends RouteContract>(route: R, body: RouteAnswer<R>): APIGatewayProxyResult =>
  json(route.success.status, body);
