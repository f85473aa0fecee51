import { revokeServiceAccountTokenRoute } from '@contract/routes/revoke-service-account-token';
import { serviceAccountTokens } from '@lambdas/composition/service-account-tokens';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE …/service-accounts/{serviceAccountId}/tokens/{tokenId} (owners and admins): its next use is refused. */
export const handler = defineRoute(revokeServiceAccountTokenRoute)(async ({ principal, params, origin, now }) => {
  await serviceAccountTokens.revokeToken(
    principal,
    params.projectId,
    params.serviceAccountId,
    params.tokenId,
    origin,
    now,
  );
  return { success: true };
});
