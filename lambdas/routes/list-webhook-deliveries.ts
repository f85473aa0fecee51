import { listWebhookDeliveriesRoute } from '@contract/routes/list-webhook-deliveries';
import { webhooks } from '@lambdas/composition/webhooks';
import { defineRoute } from '@lambdas/http/define-route';

/** GET /api/v1/projects/{projectId}/webhooks/{webhookId}/deliveries: a webhook's latest delivery attempts. */
export const handler = defineRoute(listWebhookDeliveriesRoute)(async ({ principal, params }) => ({
  success: true,
  data: await webhooks.listDeliveries(principal, params.projectId, params.webhookId),
}));
