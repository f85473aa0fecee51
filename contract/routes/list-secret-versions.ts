import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, secretVersion } from '../schemas';
import { accessDenial, SECRET_PARAM_ERRORS, secretParams } from '../secret-routes';

// The contract of list secret versions (one module per route: a function bundles only its own).

export const listSecretVersionsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/versions',
  handler: 'list-secret-versions',
  tag: 'secrets',
  tokenScope: 'read:secrets',
  serviceAccounts: true,
  summary: 'List a secret’s versions, newest first, without values (also of a secret deleted within 30 days)',
  success: { status: 200, description: 'The versions, newest first; `deleted` marks a delete' },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound, ErrorText.secretNotFound],
  },
  paramErrors: SECRET_PARAM_ERRORS,
  // Least work (list versions): the caller's membership, the environment and the secret's head,
  // strongly consistent in one call; then its versions, one Query of its partition, newest first.
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'SecretHead'], consistent: true },
    { operation: 'Query', entity: 'SecretVersion', consistent: true },
    accessDenial,
  ],
  schemas: () => ({
    params: secretParams(),
    response: dataBody(z.array(secretVersion())),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment, name: SAMPLE_SECRET.name },
  }),
});
