import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { messageBody, projectId } from '../schemas';
import { MEMBERS_REMOVED_METRIC } from '../service-metrics';

// The contract of leave project (one module per route: a function bundles only its own).

export const leaveProjectRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/members/me',
  handler: 'leave-project',
  tag: 'members',
  // As for removing a member (`DELETE …/members/{email}`), which an admin may do to themselves with an
  // admin token already: changing a membership is an administrator's act, so a token that only reads or
  // writes secrets cannot take its owner out of a project, and a session always can.
  tokenScope: 'admin',
  summary: 'Leave a project: any member but its owner',
  success: { status: 200, description: 'Left: the caller is no member of the project any more' },
  errors: {
    notFound: [ErrorText.projectNotFound],
    conflict: [ErrorText.ownerRemoval],
  },
  paramErrors: { projectId: ErrorText.projectNotFound },
  successMetric: MEMBERS_REMOVED_METRIC,
  // Least work (leave a project): the caller's member item deleted unless it is the owner's, with their
  // own copy and the `member.left` event, atomically. The member item is read only to explain a refusal
  // (404 or 409).
  dataAccess: [
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Member' },
        { action: 'Delete', entity: 'Membership' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
    { operation: 'GetItem', entity: 'Member', consistent: true, beyondFloor: true },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    response: messageBody('Left the project'),
  }),
  sample: (world) => ({ params: { projectId: world.joinedProjectId } }),
});
