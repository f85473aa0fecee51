import { ErrorText } from '@contract/errors';
import type { createTokenRoute } from '@contract/routes/create-token';
import { clock } from '@lambdas/domain/clock';
import { ForbiddenError } from '@lambdas/domain/errors';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { createToken } from '@lambdas/use-cases/tokens';
import middy from '@middy/core';

/** POST /api/v1/tokens: mints a token bound to the caller's IP; the raw token is in this response only. */
export const createTokenHandler = async (event: ApiEvent<typeof createTokenRoute>) => {
  if (event.principal.kind !== 'session') throw new ForbiddenError(ErrorText.sessionRequired);
  const token = await createToken(event.principal, event.input, event.origin, clock.now());
  return reply(event.route, { success: true, data: token });
};

export const handler = middy(createTokenHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof createTokenRoute => require('@contract/routes/create-token').createTokenRoute),
);
