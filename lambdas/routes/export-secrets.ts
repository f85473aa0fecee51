import { exportSecretsRoute } from '@contract/routes/export-secrets';
import { inEnvironment, secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { Tagged } from '@lambdas/http/responses';

/** GET /api/v1/projects/{projectId}/environments/{environment}/export: members; one recorded read. */
export const handler = defineRoute(exportSecretsRoute)(async (request) => {
  const { etag, data } = await secrets.exportSecrets(
    inEnvironment(request),
    request.ifNoneMatch,
    request.query.raw === 'true',
  );
  return new Tagged(etag, data && { success: true as const, data });
});
