import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route, SAMPLE_SECRET } from '../route';
import { dataBody, exactly, projectId } from '../schemas';
import { accessDenial, environmentPair, twoEnvironments } from '../secret-routes';

// The contract of compare environments (one module per route: a function bundles only its own).

/** How a secret of `from` compares with the one of its name in `to`. */
export const comparisonStatuses = ['only-from', 'only-to', 'same', 'different'] as const;

export const compareEnvironmentsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/compare',
  handler: 'compare-environments',
  tag: 'secrets',
  tokenScope: 'read:secrets',
  serviceAccounts: true,
  summary:
    'Compare two environments’ secrets, `?from=staging&to=production`: by name, without values; no read recorded',
  success: {
    status: 200,
    description:
      'Each secret live in either environment, by name: only in `from`, only in `to`, or in both with the same value or another, and its version in each',
  },
  errors: {
    forbidden: [ErrorText.environmentAccess],
    notFound: [ErrorText.projectNotFound, ErrorText.environmentNotFound],
  },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (compare two environments): the caller's membership and both environments, strongly
  // consistent in one call, beside each environment's secret heads (a Query of each partition, with
  // their values' digests, not their values). A pair of heads of which one was written before digests
  // is read again with its values beside the project's wrapped data key, in one more call, and opened
  // here (a KMS Decrypt at most once per project per five minutes).
  keyUse: ['Decrypt'],
  dataAccess: [
    { operation: 'BatchGetItem', entities: ['Member', 'Environment', 'Environment'], consistent: true },
    { operation: 'Query', entity: 'SecretHead', consistent: true },
    { operation: 'Query', entity: 'SecretHead', consistent: true },
    {
      operation: 'BatchGetItem',
      entities: ['Project', 'SecretHead', 'SecretHead'],
      consistent: true,
      beyondFloor: true,
    },
    accessDenial,
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    query: exactly(environmentPair(), 'query parameter').check(twoEnvironments()),
    response: dataBody(
      z.array(
        z
          .object({
            name: z.string(),
            status: z
              .enum(comparisonStatuses)
              .check(
                z.describe(
                  '`only-from`: live in `from` only; `only-to`: in `to` only; `same`: in both with the same value; `different`: in both with another',
                ),
              ),
            fromVersion: z.nullable(z.int()).check(z.describe('Its current version in `from`; null: none live there')),
            toVersion: z.nullable(z.int()).check(z.describe('Its current version in `to`; null: none live there')),
          })
          .check(z.meta({ id: 'SecretComparison' }), z.describe('One secret in two environments, without its values')),
      ),
    ),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId },
    query: { from: SAMPLE_SECRET.environment, to: 'staging' },
  }),
});
