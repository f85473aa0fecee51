import * as z from 'zod/mini';
import { route } from '../route';
import { exactly, typeError } from '../schemas';
import { signInAnswer, signInFields } from '../service-account-routes';
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
  // Least work (sign in): the service account's rules (they name its project), then the service account;
  // then, atomically, the token (its hash), the service account still there, and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'TrustRules', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Token' },
        { action: 'ConditionCheck', entity: 'ServiceAccount' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
    // A refusal of a service account that exists: its mark for the reason and the event, at most once a
    // minute per reason.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Update', entity: 'TrustRules' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
      beyondFloor: true,
    },
  ],
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
