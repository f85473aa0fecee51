import { DEFAULT_AUDIT_PAGE, MAX_AUDIT_EVENT_BYTES } from '../audit';
import { route } from '../route';
import { trailPage, trailQuery } from '../schemas';

// The contract of list audit events (one module per route: a function bundles only its own).

export const listAuditEventsRoute = route({
  method: 'GET',
  path: '/api/v1/audit-events',
  handler: 'list-audit-events',
  tag: 'audit',
  tokenScope: 'admin',
  summary: "Read the caller's audit trail: what they did and what happened to their tokens",
  success: { status: 200, description: 'One page of the trail, newest first' },
  errors: {},
  // Least work (read a user’s trail): One page of the user’s own trail partition, strongly
  // consistent so that what they just did is in it.
  dataAccess: [
    {
      operation: 'Query',
      entity: 'AuditEvent',
      consistent: true,
      pageBytes: DEFAULT_AUDIT_PAGE * MAX_AUDIT_EVENT_BYTES,
    },
  ],
  schemas: () => ({ query: trailQuery(), response: trailPage() }),
  sample: () => ({}),
});
