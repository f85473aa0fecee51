import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { MAX_SERVICE_ACCOUNT_TOKEN_DAYS, MAX_SERVICE_ACCOUNT_TOKENS } from '../limits';
import { route } from '../route';
import { allowedIps, dataBody, exactly, name, typeError } from '../schemas';
import {
  newServiceAccountTokenFields,
  SERVICE_ACCOUNT_PARAM_ERRORS,
  serviceAccountParams,
} from '../service-account-routes';

// The contract of create service account token (one module per route: a function bundles only its own).

export const createServiceAccountTokenRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens',
  handler: 'create-service-account-token',
  tag: 'serviceAccounts',
  tokenScope: null,
  summary: `Create a static token of a service account, living 1 to ${MAX_SERVICE_ACCOUNT_TOKEN_DAYS} days (owner and admin, dashboard session only)`,
  success: {
    status: 201,
    description: `The new token; \`rawToken\` appears in this response only. At most ${MAX_SERVICE_ACCOUNT_TOKENS} live at once`,
  },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound],
    conflict: [ErrorText.tokenLimit],
  },
  paramErrors: SERVICE_ACCOUNT_PARAM_ERRORS,
  // Least work (create a service account's token): the caller's role and the service account side by
  // side; the service account's slots (as a person's: which of its tokens are live); then, atomically,
  // the token, the slots, the event in the project's trail, the role checked again and the service
  // account still there.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    { operation: 'GetItem', entity: 'TokenSlots', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'ServiceAccount' },
      ],
    },
    // A service account's first token puts its slot item instead of updating it.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Token' },
        { action: 'Put', entity: 'TokenSlots' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'ServiceAccount' },
      ],
      beyondFloor: true,
    },
  ],
  schemas: () => ({
    params: serviceAccountParams(),
    body: exactly(
      {
        name: name(),
        ttlDays: z
          .int({
            error: typeError(
              'Give ttlDays: no token of a machine lives forever',
              `A whole number of days from 1 to ${MAX_SERVICE_ACCOUNT_TOKEN_DAYS}`,
            ),
          })
          .check(
            z.gte(1, 'A token lives at least 1 day'),
            z.lte(
              MAX_SERVICE_ACCOUNT_TOKEN_DAYS,
              `A service account's token lives at most ${MAX_SERVICE_ACCOUNT_TOKEN_DAYS} days`,
            ),
            z.describe(
              `Days until expiry, 1 to ${MAX_SERVICE_ACCOUNT_TOKEN_DAYS}: required, no token of a machine lives forever`,
            ),
          ),
        allowedIps: z.optional(allowedIps()),
      },
      'field',
    ),
    response: dataBody(z.object(newServiceAccountTokenFields())),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, serviceAccountId: world.serviceAccountId },
    body: { name: 'deploy', ttlDays: 90, allowedIps: ['203.0.113.0/24'] },
  }),
});
