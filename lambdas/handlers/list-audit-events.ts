import type { listAuditEventsRoute } from '@contract/routes/list-audit-events';
import { type ApiEvent, apiMiddleware, MIDDY_OPTIONS } from '@lambdas/http/api-middleware';
import { reply } from '@lambdas/http/responses';
import { readUserTrail } from '@lambdas/use-cases/audit';
import middy from '@middy/core';

/** GET /api/v1/audit-events: the caller's trail, newest first, a page at a time. */
export const listAuditEventsHandler = async (event: ApiEvent<typeof listAuditEventsRoute>) => {
  const page = await readUserTrail(event.principal, event.query);
  return reply(event.route, { success: true, data: page.events, nextCursor: page.nextCursor });
};

export const handler = middy(listAuditEventsHandler, MIDDY_OPTIONS).use(
  apiMiddleware((): typeof listAuditEventsRoute => require('@contract/routes/list-audit-events').listAuditEventsRoute),
);
