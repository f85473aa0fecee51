import { exportSecretsRoute } from '@contract/routes/export-secrets';
import { inEnvironment, secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/environments/{environment}/export: members; one recorded read. */
export const handler = defineRoute(exportSecretsRoute)(async (request) => ({
  success: true,
  data: await secrets.exportSecrets(inEnvironment(request)),
}));
