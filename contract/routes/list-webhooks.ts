import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, projectId } from '../schemas';
import { webhook } from '../webhook-routes';

// The contract of list webhooks (one module per route: a function bundles only its own).

export const listWebhooksRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/webhooks',
  handler: 'list-webhooks',
  tag: 'webhooks',
  tokenScope: 'admin',
  summary: 'List the project’s webhooks, oldest first, never their secrets (owner and admin)',
  success: { status: 200, description: 'The webhooks' },
  errors: { forbidden: [ErrorText.projectRole], notFound: [ErrorText.projectNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (list webhooks): the caller's role and the project's webhooks side by side, both
  // strongly consistent in the project's partition (one registered a moment ago is listed).
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'Query', entity: 'Webhook', consistent: true },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    response: dataBody(z.array(webhook())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId } }),
});
