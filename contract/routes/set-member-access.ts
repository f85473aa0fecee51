import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { accessByEnvironment, dataBody, email, exactly, member, projectId } from '../schemas';

// The contract of set member access (one module per route: a function bundles only its own).

export const setMemberAccessRoute = route({
  method: 'PUT',
  path: '/api/v1/projects/{projectId}/members/{email}/access',
  handler: 'set-member-access',
  tag: 'members',
  tokenScope: 'admin',
  summary: 'Set a member’s access to environments: none, read or write (owner and admin)',
  success: { status: 200, description: 'The member with their access to every environment' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.memberNotFound, ErrorText.environmentNotFound],
    conflict: [ErrorText.accessFixed],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, email: ErrorText.memberNotFound },
  // Least work (set a member's access): the address's claim names the member, the caller's role and
  // the project's environments are read beside it; then the member; then, atomically, the caller's
  // role checked again, the claim still naming the member, the member's access set only if unchanged
  // since it was read (a concurrent change is read again), and the event.
  dataAccess: [
    { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'Query', entity: 'Environment', consistent: true },
    { operation: 'GetItem', entity: 'Member', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'ConditionCheck', entity: 'EmailClaim' },
        { action: 'Update', entity: 'Member' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId(), email: email() }),
    body: exactly(
      {
        access: accessByEnvironment().check(
          z.refine((levels) => Object.keys(levels).length > 0, 'Give the level of at least one environment'),
        ),
      },
      'field',
    ),
    response: dataBody(member()),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, email: encodeURIComponent(world.memberEmail) },
    body: { access: { production: 'read' } },
  }),
});
