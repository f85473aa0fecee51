import { listSecretsRoute } from '@contract/routes/list-secrets';
import { inEnvironment, secretDeps } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';
import { Tagged } from '@lambdas/http/responses';
import { listSecrets } from '@lambdas/use-cases/secrets';

/** GET /api/v1/projects/{projectId}/environments/{environment}/secrets: members; no values. */
export const handler = defineRoute(listSecretsRoute)(async (request) => {
  const { etag, data } = await listSecrets(
    secretDeps,
    inEnvironment(request),
    request.query.deleted === 'true',
    request.ifNoneMatch,
  );
  return new Tagged(etag, data && { success: true as const, data });
});
