import { deleteWebhookRoute } from '@contract/routes/delete-webhook';
import { webhooks } from '@lambdas/composition/webhooks';
import { defineRoute } from '@lambdas/http/define-route';

/** DELETE /api/v1/projects/{projectId}/webhooks/{webhookId}: owners and admins delete a webhook. */
export const handler = defineRoute(deleteWebhookRoute)(async ({ principal, params, origin, now }) => {
  await webhooks.deleteWebhook(principal, params.projectId, params.webhookId, origin, now);
  return { success: true };
});
