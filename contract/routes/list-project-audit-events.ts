import * as z from 'zod/mini';
import { DEFAULT_AUDIT_PAGE, MAX_AUDIT_EVENT_BYTES } from '../audit';
import { ErrorText } from '../errors';
import { route } from '../route';
import { projectId, trailPage, trailQuery } from '../schemas';

// The contract of list project audit events (one module per route: a function bundles only its own).

export const listProjectAuditEventsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/audit-events',
  handler: 'list-project-audit-events',
  tag: 'audit',
  tokenScope: 'admin',
  summary: "Read a project's audit trail (owner and admin)",
  success: { status: 200, description: 'One page of the trail, newest first' },
  errors: { forbidden: [ErrorText.projectRole], notFound: [ErrorText.projectNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (read a project’s trail): The caller’s membership (strong: it decides access), then
  // one page of the project’s partition of the list index.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    {
      operation: 'Query',
      entity: 'ProjectAuditEvent',
      consistent: false,
      index: 'GSI1',
      pageBytes: DEFAULT_AUDIT_PAGE * MAX_AUDIT_EVENT_BYTES,
    },
  ],
  schemas: () => ({ params: z.object({ projectId: projectId() }), query: trailQuery(), response: trailPage() }),
  sample: (world) => ({ params: { projectId: world.projectId } }),
});
