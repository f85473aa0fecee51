import type { removeMemberRoute } from '@contract/routes/remove-member';
import { clock } from '@lambdas/domain/clock';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { removeMember } from '@lambdas/use-cases/projects';
import middy from '@middy/core';

/** DELETE /api/v1/projects/{projectId}/members/{email}: the e-mail arrives percent-encoded and is decoded once. */
export const removeMemberHandler = async (event: ApiEvent<typeof removeMemberRoute>) => {
  await removeMember(event.principal, event.params.projectId, event.params.email, event.origin, clock.now());
  return reply(event.route, { success: true, message: 'Member removed successfully' });
};

export const handler = middy(removeMemberHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof removeMemberRoute => require('@contract/routes/remove-member').removeMemberRoute),
);
