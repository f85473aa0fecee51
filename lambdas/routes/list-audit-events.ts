import { listAuditEventsRoute } from '@contract/routes/list-audit-events';
import { auditTrails } from '@lambdas/composition/audit';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/audit-events: the caller's trail, newest first, a page at a time. */
export const handler = defineRoute(listAuditEventsRoute)(async ({ principal, query }) => {
  const page = await auditTrails.readUserTrail(principal, query);
  return { success: true, data: page.events, nextCursor: page.nextCursor };
});
