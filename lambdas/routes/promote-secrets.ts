import { promoteSecretsRoute } from '@contract/routes/promote-secrets';
import { changeRequestDeps } from '@lambdas/composition/change-requests';
import { inProject } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { Created } from '@lambdas/http/responses';
import { promote } from '@lambdas/use-cases/change-requests';

/**
 * POST /api/v1/projects/{projectId}/promote: read in `from`, write in `to`; all or nothing, written at
 * once (200), or proposed as a change request where `to` is protected (201).
 */
export const handler = defineRoute(promoteSecretsRoute)(async (request) => {
  const promoted = await promote(changeRequestDeps, inProject(request), request.input);
  return 'written' in promoted
    ? { success: true, data: promoted.written }
    : new Created({ success: true, data: promoted.proposed });
});
