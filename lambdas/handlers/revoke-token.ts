import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { tokenParams } from '@lambdas/http/params';
import { json } from '@lambdas/http/responses';
import { revokeToken } from '@lambdas/use-cases/tokens';
import middy from '@middy/core';

/** DELETE /api/v1/tokens/{id}: revokes one of the caller's tokens; its next use is a 401. */
export const revokeTokenHandler = async (event: ApiEvent<undefined, { id: string }>) => {
  await revokeToken(event.principal, event.params.id);
  return json(200, { success: true });
};

export const handler = middy(revokeTokenHandler, MIDDY_OPTIONS).use(apiMiddleware({ params: tokenParams }));
