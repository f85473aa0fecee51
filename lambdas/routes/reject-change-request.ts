import { rejectChangeRequestRoute } from '@contract/routes/reject-change-request';
import { changeRequestDeps } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { closeChangeRequest } from '@lambdas/use-cases/change-requests';

/** POST …/change-requests/{id}/reject: an owner or admin closes it unapplied. */
export const handler = defineRoute(rejectChangeRequestRoute)(async (request) => ({
  success: true,
  data: await closeChangeRequest(changeRequestDeps, inEnvironment(request), request.params.id, 'rejected'),
}));
