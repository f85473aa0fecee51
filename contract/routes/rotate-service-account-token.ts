import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, rotationBody, timestamp, tokenId } from '../schemas';
import {
  newServiceAccountTokenFields,
  SERVICE_ACCOUNT_TOKEN_PARAM_ERRORS,
  serviceAccountTokenParams,
} from '../service-account-routes';

// The contract of rotate service account token (one module per route: a function bundles only its own).

export const rotateServiceAccountTokenRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens/{tokenId}/rotate',
  handler: 'rotate-service-account-token',
  tag: 'serviceAccounts',
  tokenScope: null,
  summary:
    'Replace a static token of a service account with a new one, the old one working on for a grace period (owner and admin, dashboard session only)',
  success: {
    status: 201,
    description:
      'The new token: same name and addresses, the same lifetime counted from now; `rawToken` appears in this response only',
  },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound, ErrorText.tokenNotFound],
    conflict: [ErrorText.tokenRotated, ErrorText.tokenLimit],
  },
  paramErrors: SERVICE_ACCOUNT_TOKEN_PARAM_ERRORS,
  // Least work (rotate a service account's token): the caller's role and the service account side by
  // side, then the old token, then the slots; then, atomically, the old token marked replaced, the new
  // one, the slots, the event, the role checked again and the service account still there.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    { operation: 'GetItem', entity: 'Token', consistent: true },
    { operation: 'GetItem', entity: 'TokenSlots', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Update', entity: 'Token' },
        { action: 'Put', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'ServiceAccount' },
      ],
    },
    // A rotation that lost a race to another rotation or a revoke reads the token again to say which.
    { operation: 'GetItem', entity: 'Token', consistent: true, beyondFloor: true },
  ],
  schemas: () => ({
    params: serviceAccountTokenParams(),
    body: rotationBody(),
    response: dataBody(
      z.object({
        ...newServiceAccountTokenFields(),
        replaces: z.object({
          id: tokenId(),
          stopsAt: timestamp().check(z.describe('When the old token stops working')),
        }),
      }),
    ),
  }),
  sample: (world) => ({
    params: {
      projectId: world.projectId,
      serviceAccountId: world.serviceAccountId,
      tokenId: world.serviceAccountTokenId,
    },
    body: { graceHours: 1 },
  }),
});
