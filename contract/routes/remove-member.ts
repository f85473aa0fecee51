import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { email, messageBody, projectId } from '../schemas';
import { MEMBERS_REMOVED_METRIC } from '../service-metrics';

// The contract of remove member (one module per route: a function bundles only its own).

export const removeMemberRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/members/{email}',
  handler: 'remove-member',
  tag: 'members',
  tokenScope: 'admin',
  summary: 'Remove a member from a project',
  success: { status: 200, description: 'Removed' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.memberNotFound],
    conflict: [ErrorText.ownerRemoval],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, email: ErrorText.memberNotFound },
  successMetric: MEMBERS_REMOVED_METRIC,
  // Least work (remove a member): The address’s claim names the member (strong: the member is keyed
  // by user id); then the caller’s role checked and the member deleted unless owner, atomically. The
  // caller’s and the member’s items are read only to explain a refusal (404, 403 or 409).
  dataAccess: [
    { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'EmailClaim' },
        { action: 'Delete', entity: 'Member' },
        { action: 'Delete', entity: 'Membership' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
    // An admin leaving: their own membership deleted if they are an admin, with its event.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'EmailClaim' },
        { action: 'Delete', entity: 'Membership' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
      beyondFloor: true,
    },
    // A refusal is explained by the caller's and the member's memberships.
    { operation: 'GetItem', entity: 'Member', consistent: true, beyondFloor: true },
  ],
  schemas: () => ({
    params: z.object({
      projectId: projectId(),
      email: email(),
    }),
    response: messageBody('Member removed successfully'),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, email: encodeURIComponent(world.memberEmail) },
  }),
});
