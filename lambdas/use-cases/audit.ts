import { DEFAULT_AUDIT_PAGE } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import type { RouteInput } from '@contract/route';
import type { listAuditEventsRoute } from '@contract/routes/list-audit-events';
import { BadRequestError, ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type { TrailPage, TrailQuery } from '@lambdas/domain/records';
import { canManageMembers } from '@lambdas/domain/roles';
import type { ProjectStore } from './projects';

/** A trail's query as the route validated it: text of the right form (the same for both trails). */
export type TrailRequest = RouteInput<typeof listAuditEventsRoute>['query'];

const invalidQuery = (path: 'since' | 'until', message: string) =>
  new BadRequestError(ErrorText.validation, [{ path, message }]);

/**
 * An instant as the trail's keys hold it (UTC with milliseconds). `Date` rolls a day that does not
 * exist over into the next month (`2026-02-31` is 3 March), so the instant must come back as written.
 */
const toKeyTime = (name: 'since' | 'until', instant: string | undefined): string | undefined => {
  if (instant === undefined) return undefined;
  const time = new Date(instant);
  // The schema's pattern holds the date and time to the second in the first 19 characters.
  if (Number.isNaN(time.getTime()) || time.toISOString().slice(0, 19) !== instant.slice(0, 19)) {
    throw invalidQuery(name, 'Not a date and time');
  }
  return time.toISOString();
};

const withDefaults = (request: TrailRequest): TrailQuery => {
  const since = toKeyTime('since', request.since);
  const until = toKeyTime('until', request.until);
  // Both are ISO text of one form, so text order is time order; DynamoDB refuses a reversed range.
  if (since !== undefined && until !== undefined && since > until)
    throw invalidQuery('since', 'Must not be after until');
  return {
    limit: request.limit === undefined ? DEFAULT_AUDIT_PAGE : Number(request.limit),
    cursor: request.cursor,
    type: request.type,
    since,
    until,
  };
};

/** What reading the trails reads (the audit repository; an in-memory fake in unit tests). */
export interface AuditStore {
  /** A page of a user's trail, newest first; 400 for a cursor it did not give. */
  listUserAuditEvents(userId: string, query: TrailQuery): Promise<TrailPage>;
  /** A page of a project's trail, newest first; 400 for a cursor it did not give. */
  listProjectAuditEvents(projectId: string, query: TrailQuery): Promise<TrailPage>;
}

/** The ports of the trail use cases: the trails, and the memberships that decide who reads a project's. */
export interface AuditPorts {
  readonly audit: AuditStore;
  readonly members: Pick<ProjectStore, 'getMember'>;
}

/** The trail use cases over their ports. */
export const auditUseCases = ({ audit, members }: AuditPorts) => ({
  /** The caller's own trail: what they did, and what happened to their tokens. */
  readUserTrail: async (caller: Principal, request: TrailRequest): Promise<TrailPage> =>
    audit.listUserAuditEvents(caller.userId, withDefaults(request)),

  /** A project's trail, for its owner and admins; a member gets 403, anyone else 404 (no existence leak). */
  readProjectTrail: async (caller: Principal, projectId: string, request: TrailRequest): Promise<TrailPage> => {
    const membership = await members.getMember(projectId, caller.userId);
    if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
    if (!canManageMembers(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
    return audit.listProjectAuditEvents(projectId, withDefaults(request));
  },
});
