import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, secretMeta } from '../schemas';
import { environmentParams } from '../secret-routes';

// The contract of list secrets (one module per route: a function bundles only its own).

export const listSecretsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/environments/{environment}/secrets',
  handler: 'list-secrets',
  tag: 'secrets',
  tokenScope: 'read:secrets',
  summary: 'List the live secrets of an environment, without their values',
  success: { status: 200, description: 'The live secrets, by name, each at its current version' },
  errors: { notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound, environment: ErrorText.environmentNotFound },
  // Least work (list secrets): the caller's membership and the environment, strongly consistent in one
  // call, beside the environment's secret heads (one Query of their partition, strongly consistent so
  // that one just written is listed).
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment'], consistent: true },
    { operation: 'Query', entity: 'SecretHead', consistent: true },
  ],
  schemas: () => ({
    params: environmentParams(),
    response: dataBody(z.array(secretMeta())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment } }),
});
