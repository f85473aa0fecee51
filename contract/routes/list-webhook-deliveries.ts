import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { WEBHOOK_DELIVERIES_SHOWN } from '../limits';
import { route } from '../route';
import { dataBody } from '../schemas';
import { WEBHOOK_PARAM_ERRORS, webhookDelivery, webhookParams } from '../webhook-routes';

// The contract of list webhook deliveries (one module per route: a function bundles only its own).

export const listWebhookDeliveriesRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/webhooks/{webhookId}/deliveries',
  handler: 'list-webhook-deliveries',
  tag: 'webhooks',
  tokenScope: 'admin',
  summary: `A webhook’s last ${WEBHOOK_DELIVERIES_SHOWN} delivery attempts, newest event first (owner and admin)`,
  success: { status: 200, description: 'The attempts: time, event, status code, duration, attempt and outcome' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.webhookNotFound],
  },
  paramErrors: WEBHOOK_PARAM_ERRORS,
  // Least work (list a webhook's deliveries): the caller's role, the webhook and one page of its latest
  // attempts, newest first, side by side in the project's partition.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'Webhook', consistent: true },
    { operation: 'Query', entity: 'WebhookDelivery', consistent: true, pageBytes: WEBHOOK_DELIVERIES_SHOWN * 400 },
  ],
  schemas: () => ({
    params: webhookParams(),
    response: dataBody(z.array(webhookDelivery())),
  }),
  sample: (world) => ({ params: { projectId: world.projectId, webhookId: world.webhookId } }),
});
