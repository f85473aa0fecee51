import { exportSecretsRoute } from '@contract/routes/export-secrets';
import { inEnvironment, secretDeps } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { Tagged } from '@lambdas/http/responses';
import { exportSecrets } from '@lambdas/use-cases/secrets';

/** GET /api/v1/projects/{projectId}/environments/{environment}/export: members; one recorded read. */
export const handler = defineRoute(exportSecretsRoute)(async (request) => {
  const { etag, data } = await exportSecrets(
    secretDeps,
    inEnvironment(request),
    request.ifNoneMatch,
    request.query.raw === 'true',
  );
  return new Tagged(etag, data && { success: true as const, data });
});
