import { listAuditEventsRoute } from '@contract/routes/list-audit-events';
import { defineRoute } from '@lambdas/http/define-route';
import { readUserTrail } from '@lambdas/use-cases/audit';

/** GET /api/v1/audit-events: the caller's trail, newest first, a page at a time. */
export const handler = defineRoute(listAuditEventsRoute)(async ({ principal, query }) => {
  const page = await readUserTrail(principal, query);
  return { success: true, data: page.events, nextCursor: page.nextCursor };
});
