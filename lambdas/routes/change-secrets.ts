import { changeSecretsRoute } from '@contract/routes/change-secrets';
import { secrets } from '@lambdas/composition/secrets';
import { defineRoute } from '@lambdas/http/define-route';

/** PATCH /api/v1/projects/{projectId}/environments/{environment}/secrets: members; all or nothing. */
export const handler = defineRoute(changeSecretsRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await secrets.changeSecrets(principal, params.projectId, params.environment, input, origin, now),
}));
