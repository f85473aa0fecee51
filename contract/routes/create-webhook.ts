import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { dataBody, exactly, projectId } from '../schemas';
import { newWebhook, newWebhookFields } from '../webhook-routes';

// The contract of create webhook (one module per route: a function bundles only its own).

export const createWebhookRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/webhooks',
  handler: 'create-webhook',
  tag: 'webhooks',
  tokenScope: 'admin',
  summary: 'Register a webhook for the project’s audit events; its signing secret is shown once (owner and admin)',
  success: { status: 201, description: 'The webhook, with its signing secret this once' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound],
    conflict: [ErrorText.webhookLimit],
  },
  paramErrors: { projectId: ErrorText.projectNotFound },
  successMetric: 'WebhooksCreated',
  // Least work (register a webhook): the caller's role and the project (its data key, which seals the
  // signing secret) side by side; then, atomically, the role checked again, the project's count of
  // webhooks raised under its limit (and its data key stored, when this makes the project's first),
  // the webhook, and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'Project', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Update', entity: 'Project' },
        { action: 'Put', entity: 'Webhook' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  keyUse: ['Decrypt', 'GenerateDataKey'],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    body: exactly(newWebhookFields(), 'field'),
    response: dataBody(newWebhook()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId },
    body: { url: 'https://203.0.114.10/hooks/secrets', events: ['secret.*', 'change_request.*'] },
  }),
});
