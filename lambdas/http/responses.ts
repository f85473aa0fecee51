import type { APIGatewayProxyResult } from 'aws-lambda';

/** Headers on every response of the API. */
export const JSON_HEADERS = { 'Content-Type': 'application/json' } as const;

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = '1';

/** A JSON response. */
export const json = (
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult => ({
  statusCode,
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify(body),
});

/** The error body of the contract: `{success: false, error}` (+ `details` for validation). */
export const errorBody = (error: string, details?: unknown) => ({
  success: false as const,
  error,
  ...(details ? { details } : {}),
});
