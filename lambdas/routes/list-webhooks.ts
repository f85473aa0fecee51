import { listWebhooksRoute } from '@contract/routes/list-webhooks';
import { webhooks } from '@lambdas/composition/webhooks';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/webhooks: owners and admins list the project's webhooks. */
export const handler = defineRoute(listWebhooksRoute)(async ({ principal, params }) => ({
  success: true,
  data: await webhooks.listWebhooks(principal, params.projectId),
}));
