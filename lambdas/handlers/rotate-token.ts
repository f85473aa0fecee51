import { ErrorText } from '@contract/errors';
import type { rotateTokenRoute } from '@contract/routes/rotate-token';
import { clock } from '@lambdas/domain/clock';
import { ForbiddenError } from '@lambdas/domain/errors';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { rotateToken } from '@lambdas/use-cases/tokens';
import middy from '@middy/core';

/** POST /api/v1/tokens/{id}/rotate: a new token replaces one of the caller's; the raw token is in this response only. */
export const rotateTokenHandler = async (event: ApiEvent<typeof rotateTokenRoute>) => {
  if (event.principal.kind !== 'session') throw new ForbiddenError(ErrorText.sessionRequired);
  const token = await rotateToken(event.principal, event.params.id, event.input, event.origin, clock.now());
  return reply(event.route, { success: true, data: token });
};

export const handler = middy(rotateTokenHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof rotateTokenRoute => require('@contract/routes/rotate-token').rotateTokenRoute),
);
