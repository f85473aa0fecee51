import { ErrorText } from '@contract/errors';
import type { getMeRoute } from '@contract/routes/get-me';
import { ForbiddenError, UnauthorizedError } from '@lambdas/domain/errors';
import { creatingAddress } from '@lambdas/domain/ip';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import middy from '@middy/core';

/**
 * GET /api/v1/me: the session's user and e-mail, and its address as a token created now would be
 * bound to it (the dashboard cannot see the address the API sees; it asks).
 */
export const getMeHandler = async (event: ApiEvent<typeof getMeRoute>) => {
  const { principal, origin } = event;
  if (principal.kind !== 'session') throw new ForbiddenError(ErrorText.sessionRequired);
  const sourceIp = creatingAddress(origin.sourceIp);
  // A session always carries its verified e-mail and API Gateway always an address: fail closed.
  if (!sourceIp || !principal.email) throw new UnauthorizedError();
  return reply(event.route, { success: true, data: { userId: principal.userId, email: principal.email, sourceIp } });
};

export const handler = middy(getMeHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof getMeRoute => require('@contract/routes/get-me').getMeRoute),
);
