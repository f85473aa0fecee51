import { type AuditEventType, DEFAULT_AUDIT_PAGE } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { listProjectAuditEvents, listUserAuditEvents, type TrailPage } from '@lambdas/data/audit-repository';
import { getMember } from '@lambdas/data/project-repository';
import { ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import { canManageMembers } from '@lambdas/domain/roles';

/** A trail's query as the route validated it. */
export interface TrailRequest {
  readonly limit?: number;
  readonly cursor?: string;
  readonly type?: AuditEventType;
  readonly since?: string;
  readonly until?: string;
}

const withDefaults = (request: TrailRequest) => ({ ...request, limit: request.limit ?? DEFAULT_AUDIT_PAGE });

/** The caller's own trail: what they did, and what happened to their tokens. */
export const readUserTrail = (caller: Principal, request: TrailRequest): Promise<TrailPage> =>
  listUserAuditEvents(caller.userId, withDefaults(request));

/** A project's trail, for its owner and admins; a member gets 403, anyone else 404 (no existence leak). */
export const readProjectTrail = async (
  caller: Principal,
  projectId: string,
  request: TrailRequest,
): Promise<TrailPage> => {
  const membership = await getMember(projectId, caller.userId);
  if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
  if (!canManageMembers(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
  return listProjectAuditEvents(projectId, withDefaults(request));
};
