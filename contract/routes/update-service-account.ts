import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, exactly, name } from '../schemas';
import {
  description,
  SERVICE_ACCOUNT_PARAM_ERRORS,
  serviceAccount,
  serviceAccountAccess,
  serviceAccountParams,
} from '../service-account-routes';

// The contract of update service account (one module per route: a function bundles only its own).

export const updateServiceAccountRoute = route({
  method: 'PATCH',
  path: '/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}',
  handler: 'update-service-account',
  tag: 'serviceAccounts',
  tokenScope: 'admin',
  summary: 'Change a service account’s name, description or access (owner and admin)',
  success: { status: 200, description: 'The service account as changed' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.serviceAccountNotFound, ErrorText.environmentNotFound],
  },
  paramErrors: SERVICE_ACCOUNT_PARAM_ERRORS,
  // Least work (change a service account): the caller's role, the service account and the project's
  // environments (the access names only those, each in its life), side by side; then, atomically, the
  // role checked again, the service account updated if it still exists, and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'ServiceAccount', consistent: true },
    { operation: 'Query', entity: 'Environment', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Update', entity: 'ServiceAccount' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: serviceAccountParams(),
    body: exactly(
      {
        name: z.optional(name()),
        description: z.optional(z.nullable(description()).check(z.describe('The new description; null takes it away'))),
        access: z.optional(
          serviceAccountAccess().check(z.describe('Its whole access: replaces what it held, by environment name')),
        ),
      },
      'field',
    ).check(
      z.refine((changes) => Object.keys(changes).length > 0, 'Give at least one of name, description and access'),
    ),
    response: dataBody(serviceAccount()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, serviceAccountId: world.serviceAccountId },
    body: { access: { staging: 'read', production: 'read' } },
  }),
});
