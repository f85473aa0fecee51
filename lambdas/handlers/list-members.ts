import type { listMembersRoute } from '@contract/routes/list-members';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { listMembers } from '@lambdas/use-cases/projects';
import middy from '@middy/core';

/** GET /api/v1/projects/{projectId}/members: owner first, then by e-mail. */
export const listMembersHandler = async (event: ApiEvent<typeof listMembersRoute>) =>
  reply(event.route, { success: true, data: await listMembers(event.principal, event.params.projectId) });

export const handler = middy(listMembersHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof listMembersRoute => require('@contract/routes/list-members').listMembersRoute),
);
