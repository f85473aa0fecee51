import type { listTokensRoute } from '@contract/routes/list-tokens';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { listTokens } from '@lambdas/use-cases/tokens';
import middy from '@middy/core';

/** GET /api/v1/tokens: the caller's active and expired tokens, newest first, never a secret. */
export const listTokensHandler = async (event: ApiEvent<typeof listTokensRoute>) =>
  reply(event.route, { success: true, data: await listTokens(event.principal) });

export const handler = middy(listTokensHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof listTokensRoute => require('@contract/routes/list-tokens').listTokensRoute),
);
