import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import { newLife } from '@lambdas/domain/ids';
import type { Principal } from '@lambdas/domain/principal';
import type { EnvironmentRecord, MemberRecord } from '@lambdas/domain/records';
import { canManageEnvironments } from '@lambdas/domain/roles';

/** What the environment use cases read and write (the repositories; in-memory fakes in unit tests). */
export interface EnvironmentStore {
  /** One membership, strongly consistent. */
  getMember(projectId: string, userId: string): Promise<MemberRecord | undefined>;
  /** A project's environments, strongly consistent. */
  listEnvironments(projectId: string): Promise<EnvironmentRecord[]>;
  /** Adds an environment with its event while the caller manages the project: 409 taken or at the limit. */
  createEnvironment(managerUserId: string, environment: EnvironmentRecord, event: AuditEvent): Promise<void>;
  /** Deletes an empty environment with its event while the caller manages the project: 404, or 409 not empty. */
  deleteEnvironment(managerUserId: string, projectId: string, name: string, event: AuditEvent): Promise<void>;
}

/** An environment as the API answers it. */
const shown = ({ name, createdAt, secretCount }: EnvironmentRecord) => ({ name, createdAt, secretCount });

/** The environment use cases over their store. */
export const environmentUseCases = ({ environments }: { readonly environments: EnvironmentStore }) => {
  /** The caller's membership of the project, which must manage environments (404 for a non-member). */
  const requireManager = async (caller: Principal, projectId: string): Promise<MemberRecord> => {
    const membership = await environments.getMember(projectId, caller.userId);
    if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
    if (!canManageEnvironments(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
    return membership;
  };

  /** The environments of a project the caller belongs to, by name. */
  const listEnvironments = async (caller: Principal, projectId: string) => {
    // Side by side: the list is answered only if the membership says so.
    const [membership, listed] = await Promise.all([
      environments.getMember(projectId, caller.userId),
      environments.listEnvironments(projectId),
    ]);
    if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
    return listed.map(shown).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };

  /** Adds an empty environment to a project the caller manages. */
  const createEnvironment = async (
    caller: Principal,
    projectId: string,
    name: string,
    origin: RequestOrigin,
    now: Date,
  ) => {
    await requireManager(caller, projectId);
    const environment: EnvironmentRecord = { projectId, name, createdAt: toIso(now), secretCount: 0, life: newLife() };
    const event = auditEvent('environment.created', origin, now, { projectId }, { environment: name });
    await environments.createEnvironment(caller.userId, environment, event);
    return shown(environment);
  };

  /** Deletes an environment that holds no live secret from a project the caller manages. */
  const deleteEnvironment = async (
    caller: Principal,
    projectId: string,
    name: string,
    origin: RequestOrigin,
    now: Date,
  ): Promise<void> => {
    await requireManager(caller, projectId);
    const event = auditEvent('environment.deleted', origin, now, { projectId }, { environment: name });
    await environments.deleteEnvironment(caller.userId, projectId, name, event);
  };

  return { listEnvironments, createEnvironment, deleteEnvironment };
};
