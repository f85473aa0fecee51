import { ErrorText } from './errors';
import { NO_STORE_HEADERS } from './headers';
import { RETRY_AFTER_SECONDS } from './limits';

/** The API Gateway response types this API customises. */
export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'AUTHORIZER_FAILURE'
  | 'AUTHORIZER_CONFIGURATION_ERROR'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'RESOURCE_NOT_FOUND'
  | 'REQUEST_TOO_LARGE'
  | 'THROTTLED'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

/** One gateway response: its status and the JSON body template (with `$context` variables). */
export interface GatewayResponseDefinition {
  readonly type: GatewayResponseType;
  /** Undefined keeps the status API Gateway chose (DEFAULT_4XX covers several). */
  readonly statusCode: number | undefined;
  readonly template: string;
  /** Its headers, `Cache-Control: no-store` among them as on every answer of the API. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Template variable that ACCESS_DENIED fills from the authorizer's Deny context. */
export const DENIAL_TEXT_VARIABLE = '$context.authorizer.error';

const fixed = (type: GatewayResponseType, statusCode: number, error: string, headers: Record<string, string> = {}) => ({
  type,
  statusCode,
  template: JSON.stringify({ success: false, error }),
  headers: { ...NO_STORE_HEADERS, ...headers },
});

/**
 * The gateway's own answers, used verbatim by the stack and by the local gateway, so a client sees
 * the same status and body from both. API Gateway's default for an unknown path or method is a 403
 * "Missing Authentication Token"; the contract's is a 404.
 */
export const gatewayResponses: readonly GatewayResponseDefinition[] = [
  fixed('UNAUTHORIZED', 401, ErrorText.unauthorized),
  {
    type: 'ACCESS_DENIED',
    statusCode: 403,
    template: `{"success":false,"error":"${DENIAL_TEXT_VARIABLE}"}`,
    headers: NO_STORE_HEADERS,
  },
  fixed('AUTHORIZER_FAILURE', 503, ErrorText.unavailable, { 'Retry-After': RETRY_AFTER_SECONDS }),
  fixed('AUTHORIZER_CONFIGURATION_ERROR', 503, ErrorText.unavailable, { 'Retry-After': RETRY_AFTER_SECONDS }),
  fixed('MISSING_AUTHENTICATION_TOKEN', 404, ErrorText.notFound),
  fixed('RESOURCE_NOT_FOUND', 404, ErrorText.notFound),
  fixed('REQUEST_TOO_LARGE', 413, ErrorText.tooLarge),
  fixed('THROTTLED', 429, ErrorText.tooManyRequests),
  {
    type: 'DEFAULT_4XX',
    statusCode: undefined,
    template: '{"success":false,"error":$context.error.messageString}',
    headers: NO_STORE_HEADERS,
  },
  fixed('DEFAULT_5XX', 500, ErrorText.internal),
];

/** The definition of one response type. */
export const gatewayResponse = (type: GatewayResponseType): GatewayResponseDefinition => {
  const found = gatewayResponses.find((response) => response.type === type);
  if (!found) throw new Error(`No gateway response ${type}`);
  return found;
};
