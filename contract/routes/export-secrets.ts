import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, exactly, rawQuery } from '../schemas';
import { environmentParams } from '../secret-routes';

// The contract of export secrets (one module per route: a function bundles only its own).

export const exportSecretsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/environments/{environment}/export',
  handler: 'export-secrets',
  tag: 'secrets',
  tokenScope: 'read:secrets',
  serviceAccounts: true,
  summary:
    'Every live secret of an environment with its value, `{NAME: value}`, references resolved (`?raw=true`: as stored): one recorded read',
  success: { status: 200, description: 'Each live secret’s name and value; the read is in the audit trail' },
  errors: {
    conflict: [ErrorText.referenceUnresolved],
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, environment: ErrorText.environmentNotFound },
  conditional: true,
  // Least work (export): the caller's membership, the environment and the project's wrapped data key,
  // strongly consistent in one call, then the environment's secret heads (one Query; they hold the
  // current values; read after the environment, so that no export is older than its ETag); the data
  // key from the function's cache; then one `secret.read` event of every secret read, written before
  // the values are answered. A 304 makes the first call only: no head, no key, no event. An environment
  // whose values reference others reads those environments for its ETag, one BatchGetItem a level, and
  // then the references by levels (the referenced heads, and the caller's membership, the project and the
  // environment of each met for the first time), recording one more `secret.read` in each other one.
  keyUse: ['Decrypt'],
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'Project'], consistent: true },
    { operation: 'Query', entity: 'SecretHead', consistent: true },
    { operation: 'PutItem', entity: 'ProjectAuditEvent' },
    {
      operation: 'BatchGetItem',
      entities: ['Member', 'Environment', 'SecretHead', 'Project'],
      consistent: true,
      beyondFloor: true,
    },
  ],
  schemas: () => ({
    params: environmentParams(),
    query: exactly({ raw: rawQuery() }, 'query parameter'),
    response: dataBody(
      z.record(z.string(), z.string()).check(z.describe('Each live secret’s name and its current value')),
    ),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, environment: SAMPLE_SECRET.environment } }),
});
