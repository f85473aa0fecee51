import type { revokeTokenRoute } from '@contract/routes/revoke-token';
import { clock } from '@lambdas/domain/clock';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { revokeToken } from '@lambdas/use-cases/tokens';
import middy from '@middy/core';

/** DELETE /api/v1/tokens/{id}: revokes one of the caller's tokens; its next use is a 401. */
export const revokeTokenHandler = async (event: ApiEvent<typeof revokeTokenRoute>) => {
  await revokeToken(event.principal, event.params.id, event.origin, clock.now());
  return reply(event.route, { success: true });
};

export const handler = middy(revokeTokenHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof revokeTokenRoute => require('@contract/routes/revoke-token').revokeTokenRoute),
);
