import { restoreSecretRoute } from '@contract/routes/restore-secret';
import { secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/restore: members. */
export const handler = defineRoute(restoreSecretRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await secrets.restoreSecret(
    principal,
    params.projectId,
    params.environment,
    params.name,
    input.version,
    origin,
    now,
  ),
}));
