import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody } from '../schemas';
import { WEBHOOK_PARAM_ERRORS, webhookParams } from '../webhook-routes';

// The contract of ping webhook (one module per route: a function bundles only its own).

export const pingWebhookRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/webhooks/{webhookId}/ping',
  handler: 'ping-webhook',
  tag: 'webhooks',
  tokenScope: 'admin',
  summary: 'Send a webhook a `webhook.pinged` event, delivered as any other; its outcome shows in its deliveries',
  success: { status: 200, description: 'The ping event, on its way; its deliveries show how it went' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.webhookNotFound],
  },
  paramErrors: WEBHOOK_PARAM_ERRORS,
  // Least work (ping a webhook): the caller's role and the webhook side by side; then, atomically, the
  // role and the webhook checked again, and the `webhook.pinged` event, which the delivery takes from
  // the audit trail's way out as it takes every event, to this webhook only.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'Webhook', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'Webhook' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: webhookParams(),
    response: dataBody(z.object({ eventId: z.string().check(z.describe('The id of the `webhook.pinged` event')) })),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, webhookId: world.webhookId } }),
});
