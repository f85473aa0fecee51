import * as z from 'zod/mini';
import { ErrorText } from '../errors';
import { route } from '../route';
import { projectId, successBody } from '../schemas';

// The contract of mark membership seen (one module per route: a function bundles only its own).

export const markMembershipSeenRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/members/me/seen',
  handler: 'mark-membership-seen',
  tag: 'members',
  // Sessions only: the notice of who added the caller is for the person, who opens the project in the
  // dashboard; a script's token (the `secrets` command in a folder whose `.secrets.json` names the
  // project) must never clear it for them.
  tokenScope: null,
  summary:
    'Mark a project the caller was added to as opened: its notice of who added them goes (dashboard session only)',
  success: {
    status: 200,
    description: 'Opened: the project list and `GET /me` show no notice for it any more (also when there was none)',
  },
  errors: { notFound: [ErrorText.projectNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (open a project one was added to): the caller's own copy of the membership marked
  // opened, only while it holds a notice not opened yet. The member item is read only when that
  // condition fails, to tell a membership with nothing to open (200) from none (404).
  dataAccess: [
    { operation: 'UpdateItem', entity: 'Membership' },
    { operation: 'GetItem', entity: 'Member', consistent: true, beyondFloor: true },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    response: successBody(),
  }),
  sample: (world) => ({ params: { projectId: world.joinedProjectId } }),
});
