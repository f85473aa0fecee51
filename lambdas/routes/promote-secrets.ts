import { promoteSecretsRoute } from '@contract/routes/promote-secrets';
import { inProject, secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects/{projectId}/promote: read in `from`, write in `to`; all or nothing. */
export const handler = defineRoute(promoteSecretsRoute)(async (request) => ({
  success: true,
  data: await secrets.promoteSecrets(inProject(request), request.input),
}));
