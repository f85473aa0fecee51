import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, environment, projectId } from '../schemas';

// The contract of list environments (one module per route: a function bundles only its own).

export const listEnvironmentsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/environments',
  handler: 'list-environments',
  tag: 'secrets',
  tokenScope: 'read:secrets',
  serviceAccounts: true,
  summary: 'List the environments of a project',
  success: { status: 200, description: 'The environments, by name' },
  errors: { notFound: [ErrorText.projectNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (list environments): the caller's membership decides access, and the project's
  // environments, strongly consistent so that one just created is listed (both in the project's
  // partition).
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'Query', entity: 'Environment', consistent: true },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    response: dataBody(z.array(environment())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId } }),
});
