import { ErrorText } from '@contract/errors';
import { DEFAULT_TTL_DAYS } from '@contract/limits';
import { clock } from '@lambdas/domain/clock';
import { ForbiddenError } from '@lambdas/domain/errors';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { type CreateTokenBody, createTokenBody } from '@lambdas/http/bodies/create-token';
import { json } from '@lambdas/http/responses';
import { createToken } from '@lambdas/use-cases/tokens';
import middy from '@middy/core';

/** POST /api/v1/tokens: mints a token bound to the caller's IP; the raw token is in this response only. */
export const createTokenHandler = async (event: ApiEvent<CreateTokenBody>) => {
  if (event.principal.kind !== 'session') throw new ForbiddenError(ErrorText.sessionRequired);
  const { name, scopes, ttlDays } = event.input;
  const token = await createToken(
    event.principal,
    { name, scopes, ttlDays: ttlDays === undefined ? DEFAULT_TTL_DAYS : ttlDays },
    event.requestContext.identity.sourceIp,
    clock.now(),
  );
  return json(201, { success: true, data: token });
};

export const handler = middy(createTokenHandler, MIDDY_OPTIONS).use(apiMiddleware({ body: createTokenBody }));
