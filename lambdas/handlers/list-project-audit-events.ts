import type { listProjectAuditEventsRoute } from '@contract/routes/list-project-audit-events';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { readProjectTrail } from '@lambdas/use-cases/audit';
import middy from '@middy/core';

/** GET /api/v1/projects/{projectId}/audit-events: the project's trail, for its owner and admins. */
export const listProjectAuditEventsHandler = async (event: ApiEvent<typeof listProjectAuditEventsRoute>) => {
  const page = await readProjectTrail(event.principal, event.params.projectId, event.query);
  return reply(event.route, { success: true, data: page.events, nextCursor: page.nextCursor });
};

export const handler = middy(listProjectAuditEventsHandler, MIDDY_OPTIONS).use(
  apiMiddleware(
    (): typeof listProjectAuditEventsRoute =>
      require('@contract/routes/list-project-audit-events').listProjectAuditEventsRoute,
  ),
);
