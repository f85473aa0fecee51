import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, exactly, name, projectId } from '../schemas';
import { description, serviceAccount, serviceAccountAccess } from '../service-account-routes';

// The contract of create service account (one module per route: a function bundles only its own).

export const createServiceAccountRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/service-accounts',
  handler: 'create-service-account',
  tag: 'serviceAccounts',
  tokenScope: 'admin',
  summary: 'Add a service account to a project, with its access to environments (owner and admin)',
  success: { status: 201, description: 'The new service account' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound],
    conflict: [ErrorText.serviceAccountLimit],
  },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (create a service account): the caller's role and the project's environments (the
  // access names only those, each in its life), side by side; then, atomically, the role checked again,
  // the service account put, the project's count of them raised under its limit, and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'Query', entity: 'Environment', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Put', entity: 'ServiceAccount' },
        { action: 'Update', entity: 'Project' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    body: exactly({ name: name(), description: z.optional(description()), access: serviceAccountAccess() }, 'field'),
    response: dataBody(serviceAccount()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId },
    body: { name: 'ci-deploy', description: 'Deploys from CI', access: { staging: 'read' } },
  }),
});
