import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { MAX_APPROVALS } from '../limits';
import { route } from '../route';
import { accessLevel, dataBody, environment, exactly } from '../schemas';
import { environmentParams } from '../secret-routes';

// The contract of update environment (one module per route: a function bundles only its own).

export const updateEnvironmentRoute = route({
  method: 'PATCH',
  path: '/api/v1/projects/{projectId}/environments/{environment}',
  handler: 'update-environment',
  tag: 'secrets',
  tokenScope: 'admin',
  summary: 'Change an environment’s settings: protection, approvals, members’ default access (owner and admin)',
  success: { status: 200, description: 'The environment with its settings' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, environment: ErrorText.environmentNotFound },
  // Least work (change an environment's settings): the caller's role and the environment, strongly
  // consistent, side by side; then, atomically, the role checked again, the environment updated (only
  // in the life read: one deleted and made again since is left alone), and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'Environment', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Update', entity: 'Environment' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: environmentParams(),
    body: exactly(
      {
        protected: z.optional(
          z
            .boolean({ error: 'Use true or false' })
            .check(z.describe('Whether its secrets change only through change requests')),
        ),
        approvals: z.optional(
          z
            .int({ error: `Use a whole number from 1 to ${MAX_APPROVALS}` })
            .check(
              z.minimum(1, `Use 1 to ${MAX_APPROVALS}`),
              z.maximum(MAX_APPROVALS, `Use 1 to ${MAX_APPROVALS}`),
              z.describe(`The approvals a change request needs there, 1 to ${MAX_APPROVALS}`),
            ),
        ),
        defaultAccess: z.optional(accessLevel()),
      },
      'field',
    ).check(
      z.refine(
        (settings) => Object.keys(settings).length > 0,
        'Give at least one of protected, approvals and defaultAccess',
      ),
    ),
    response: dataBody(environment()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: 'staging' },
    body: { approvals: 2 },
  }),
});
