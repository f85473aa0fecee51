import { createServiceAccountTokenRoute } from '@contract/routes/create-service-account-token';
import { serviceAccountTokens } from '@lambdas/composition/service-account-tokens';
import { defineRoute } from '@lambdas/http/define-route';

/** POST …/service-accounts/{serviceAccountId}/tokens (owners and admins, sessions only): the raw token is in this answer only. */
export const handler = defineRoute(createServiceAccountTokenRoute)(
  async ({ principal, params, input, origin, now }) => ({
    success: true,
    data: await serviceAccountTokens.createToken(
      principal,
      params.projectId,
      params.serviceAccountId,
      input,
      origin,
      now,
    ),
  }),
);
