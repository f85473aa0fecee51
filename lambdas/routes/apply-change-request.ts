import { applyChangeRequestRoute } from '@contract/routes/apply-change-request';
import { changeRequestDeps } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { forceChangeRequest } from '@lambdas/use-cases/change-requests';

/** POST …/change-requests/{id}/apply: the owner applies it without its approvals, giving a reason. */
export const handler = defineRoute(applyChangeRequestRoute)(async (request) => ({
  success: true,
  data: await forceChangeRequest(changeRequestDeps, inEnvironment(request), request.params.id, request.input.reason),
}));
