import { createWebhookRoute } from '@contract/routes/create-webhook';
import { webhooks } from '@lambdas/composition/webhooks';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects/{projectId}/webhooks: owners and admins register a webhook; its secret is answered once. */
export const handler = defineRoute(createWebhookRoute)(async ({ principal, params, input, origin, now }) => ({
  success: true,
  data: await webhooks.createWebhook(principal, params.projectId, input, origin, now),
}));
