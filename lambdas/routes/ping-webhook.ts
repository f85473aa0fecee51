import { pingWebhookRoute } from '@contract/routes/ping-webhook';
import { webhooks } from '@lambdas/composition/webhooks';
import { defineRoute } from '@lambdas/http/define-route';

/** POST /api/v1/projects/{projectId}/webhooks/{webhookId}/ping: owners and admins send a webhook a test event. */
export const handler = defineRoute(pingWebhookRoute)(async ({ principal, params, origin, now }) => ({
  success: true,
  data: await webhooks.pingWebhook(principal, params.projectId, params.webhookId, origin, now),
}));
