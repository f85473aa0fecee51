import * as z from 'zod/mini';
import { route } from '../route';
import { exactly, typeError } from '../schemas';
import { SIGN_IN_DATA_ACCESS, signInAnswer, signInFields } from '../service-account-routes';
import { SERVICE_ACCOUNT_SIGNED_IN_METRIC } from '../service-metrics';

// The contract of sign in with OIDC (one module per route: a function bundles only its own).

export const signInOidcRoute = route({
  method: 'POST',
  path: '/api/v1/auth/oidc',
  handler: 'sign-in-oidc',
  tag: 'serviceAccounts',
  tokenScope: null,
  signIn: true,
  summary:
    'Sign in as a service account with a workload’s OIDC token (GitHub Actions, GitLab CI, Kubernetes…) that one of its trust rules accepts; no other credential',
  success: { status: 200, description: 'A short-lived token of the service account, bound to the calling address' },
  errors: {},
  successMetric: SERVICE_ACCOUNT_SIGNED_IN_METRIC,
  // Least work (sign in): as every sign-in's (SIGN_IN_DATA_ACCESS); the proof's check reads no table.
  dataAccess: SIGN_IN_DATA_ACCESS,
  schemas: () => ({
    body: exactly(
      {
        ...signInFields(),
        token: z
          .string({ error: typeError('Give the workload’s OIDC token', 'A token is text') })
          .check(
            z.minLength(1, 'Give the workload’s OIDC token'),
            z.maxLength(16 * 1024, 'Not an OIDC token: longer than any'),
            z.describe('The JWT the workload’s issuer gave it (GitHub Actions: its ID token for the rule’s audience)'),
          ),
      },
      'field',
    ),
    response: signInAnswer(),
  }),
  sample: (world) => ({ body: { serviceAccountId: world.serviceAccountId, token: world.workloadToken } }),
});
