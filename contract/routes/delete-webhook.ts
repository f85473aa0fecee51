import { ErrorText } from '../errors';
import { route } from '../route';
import { successBody } from '../schemas';
import { WEBHOOK_PARAM_ERRORS, webhookParams } from '../webhook-routes';

// The contract of delete webhook (one module per route: a function bundles only its own).

export const deleteWebhookRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/webhooks/{webhookId}',
  handler: 'delete-webhook',
  tag: 'webhooks',
  tokenScope: 'admin',
  summary: 'Delete a webhook: nothing more is delivered to it (owner and admin)',
  success: { status: 200, description: 'Deleted' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.webhookNotFound],
  },
  paramErrors: WEBHOOK_PARAM_ERRORS,
  // Least work (delete a webhook): the caller's role and the webhook (its origin for the event) side by
  // side; then, atomically, the role checked again, the webhook deleted if it is still there, the
  // project's count of webhooks lowered, and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'Webhook', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Delete', entity: 'Webhook' },
        { action: 'Update', entity: 'Project' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({ params: webhookParams(), response: successBody() }),
  sample: (world) => ({ params: { projectId: world.projectId, webhookId: world.webhookId } }),
});
