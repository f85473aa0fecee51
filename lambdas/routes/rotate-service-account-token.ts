import { rotateServiceAccountTokenRoute } from '@contract/routes/rotate-service-account-token';
import { serviceAccountTokens } from '@lambdas/composition/service-account-tokens';
import { defineRoute } from '@lambdas/http/define-route';

/** POST …/tokens/{tokenId}/rotate (owners and admins, sessions only): the raw token is in this answer only. */
export const handler = defineRoute(rotateServiceAccountTokenRoute)(
  async ({ principal, params, input, origin, now }) => ({
    success: true,
    data: await serviceAccountTokens.rotateToken(
      principal,
      params.projectId,
      params.serviceAccountId,
      params.tokenId,
      input,
      origin,
      now,
    ),
  }),
);
