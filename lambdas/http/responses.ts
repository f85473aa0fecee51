import type { APIGatewayProxyResult } from 'aws-lambda';

/** Headers on every response of the API. */
export const JSON_HEADERS = { 'Content-Type': 'application/json' } as const;

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
