import { getSecretRoute } from '@contract/routes/get-secret';
import { secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}: members; a recorded read. */
export const handler = defineRoute(getSecretRoute)(async ({ principal, params, query, origin, now }) => ({
  success: true,
  data: await secrets.getSecret(
    principal,
    params.projectId,
    params.environment,
    params.name,
    query.version === undefined ? undefined : Number(query.version),
    origin,
    now,
  ),
}));
