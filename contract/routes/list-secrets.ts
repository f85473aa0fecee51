import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, exactly, secretMeta } from '../schemas';
import { accessDenial, environmentParams } from '../secret-routes';

// The contract of list secrets (one module per route: a function bundles only its own).

export const listSecretsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/environments/{environment}/secrets',
  handler: 'list-secrets',
  tag: 'secrets',
  tokenScope: 'read:secrets',
  serviceAccounts: true,
  summary: 'List an environment’s live secrets (`?deleted=true`: those deleted within 30 days), without values',
  success: {
    status: 200,
    description:
      'The live secrets, by name, each at its current version; with `deleted=true`, the secrets deleted within 30 days (which a restore brings back), each at its delete',
  },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, environment: ErrorText.environmentNotFound },
  conditional: true,
  // Least work (list secrets): the caller's membership and the environment, strongly consistent in one
  // call, then the environment's secret heads (one Query of their partition, strongly consistent so
  // that one just written is listed): read after the environment, so that the list is never older
  // than the revision its ETag names. A 304 of the live list reads no head.
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment'], consistent: true },
    { operation: 'Query', entity: 'SecretHead', consistent: true },
    accessDenial,
  ],
  schemas: () => ({
    params: environmentParams(),
    query: exactly(
      {
        deleted: z.optional(
          z
            .string()
            .check(
              z.regex(/^(true|false)$/, 'Use true or false'),
              z.describe('true: the secrets deleted within 30 days instead of the live ones'),
            ),
        ),
      },
      'query parameter',
    ),
    response: dataBody(z.array(secretMeta())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment } }),
});
