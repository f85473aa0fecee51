import type { addMemberRoute } from '@contract/routes/add-member';
import { clock } from '@lambdas/domain/clock';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { addMember } from '@lambdas/use-cases/projects';
import middy from '@middy/core';

/** POST /api/v1/projects/{projectId}/members: adds a signed-in user as `member` or `admin`. */
export const addMemberHandler = async (event: ApiEvent<typeof addMemberRoute>) => {
  await addMember(event.principal, event.params.projectId, event.input, event.origin, clock.now());
  return reply(event.route, { success: true, message: 'Member added successfully' });
};

export const handler = middy(addMemberHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof addMemberRoute => require('@contract/routes/add-member').addMemberRoute),
);
