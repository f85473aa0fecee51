import { createChangeRequestRoute } from '@contract/routes/create-change-request';
import { changeRequestDeps } from '@lambdas/composition/change-requests';
import { inEnvironment } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { proposeChange } from '@lambdas/use-cases/change-requests';

/** POST …/environments/{environment}/change-requests: a member with write there proposes a change. */
export const handler = defineRoute(createChangeRequestRoute)(async (request) => ({
  success: true,
  data: await proposeChange(changeRequestDeps, inEnvironment(request), request.input),
}));
