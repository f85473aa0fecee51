import { listProjectAuditEventsRoute } from '@contract/routes/list-project-audit-events';
import { auditTrails } from '@lambdas/composition/audit';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/audit-events (owners and admins): the project's trail, newest first. */
export const handler = defineRoute(listProjectAuditEventsRoute)(async ({ principal, params, query }) => {
  const page = await auditTrails.readProjectTrail(principal, params.projectId, query);
  return { success: true, data: page.events, nextCursor: page.nextCursor };
});
