import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { grantableRoles } from '../roles';
import { route } from '../route';
import { dataBody, email, messageBody, projectId, role } from '../schemas';
import { MEMBERS_ADDED_METRIC, MEMBERS_REMOVED_METRIC } from '../service-metrics';

// The member routes' contracts (one module per resource: a function bundles only its own).

export const listMembersRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/members',
  handler: 'list-members',
  tokenScope: 'read:secrets',
  summary: 'List the members of a project',
  success: { status: 200, description: 'The members, owner first, then by e-mail' },
  errors: { notFound: [ErrorText.projectNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (list members (decides access)): The project’s partition, strongly consistent because
  // the caller’s own membership in it decides access; then each member’s profile, whose address
  // follows their latest session (eventual: display only). The sample world’s project has two
  // members.
  dataAccess: [
    { operation: 'Query', entity: 'Member', consistent: true },
    { operation: 'BatchGetItem', entity: 'Profile', consistent: false, items: 2 },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    response: dataBody(z.array(z.object({ userId: z.string(), email: z.string(), role: role() }))),
  }),
  sample: (world) => ({ params: { projectId: world.projectId } }),
});

export const addMemberRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/members',
  handler: 'add-member',
  tokenScope: 'admin',
  summary: 'Add a member to a project',
  success: { status: 200, description: 'Added' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.userNotFound],
    conflict: [ErrorText.alreadyMember],
  },
  paramErrors: { projectId: ErrorText.projectNotFound },
  successMetric: MEMBERS_ADDED_METRIC,
  // Least work (add a member): The caller’s membership (role, and the project name the new
  // membership carries) and the address’s claim, which names the user (strong: a user who has just
  // signed in must be found), then the role re-checked and the member put if absent, atomically.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Put', entity: 'Member' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    body: z.strictObject({ email: email(), role: z.enum(grantableRoles) }),
    response: messageBody('Member added successfully'),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId },
    body: { email: world.otherEmail, role: 'member' },
  }),
});

export const removeMemberRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/members/{email}',
  handler: 'remove-member',
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
        { action: 'Delete', entity: 'Member' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
    // An admin leaving: their own membership deleted if they are an admin, with its event.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Member' },
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
