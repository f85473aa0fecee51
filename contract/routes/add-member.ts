import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { grantableRoles } from '../roles';
import { route } from '../route';
import { email, exactly, messageBody, projectId } from '../schemas';
import { MEMBERS_ADDED_METRIC } from '../service-metrics';

// The contract of add member (one module per route: a function bundles only its own).

export const addMemberRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/members',
  handler: 'add-member',
  tag: 'members',
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
  // signed in must be found), then, atomically, the role and the claim re-checked (a rename or an
  // offboarding since adds nobody) and the member put if absent, with the member's own copy.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'EmailClaim' },
        { action: 'Put', entity: 'Member' },
        { action: 'Put', entity: 'Membership' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    body: exactly(
      { email: email(), role: z.enum(grantableRoles, `Choose a role: ${grantableRoles.join(' or ')}`) },
      'field',
    ),
    response: messageBody('Member added successfully'),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId },
    body: { email: world.otherEmail, role: 'member' },
  }),
});
