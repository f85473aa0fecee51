import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import type { AccessLevel } from '@contract/roles';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { accessIn, DEFAULT_APPROVALS, defaultAccessOf, isProtected } from '@lambdas/domain/environment-access';
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
  /** One environment, strongly consistent. */
  getEnvironment(projectId: string, name: string): Promise<EnvironmentRecord | undefined>;
  /**
   * Changes an environment's settings with the event while the caller manages the project and the
   * environment is still in the life read (raising its revision): `false` when either no longer holds.
   */
  updateEnvironment(managerUserId: string, environment: EnvironmentRecord, event: AuditEvent): Promise<boolean>;
  /** Deletes an empty environment with its event while the caller manages the project: 404, or 409 not empty. */
  deleteEnvironment(managerUserId: string, projectId: string, name: string, event: AuditEvent): Promise<void>;
}

/** The settings of an environment a manager may change. */
export interface EnvironmentSettings {
  readonly protected?: boolean;
  readonly approvals?: number;
  readonly defaultAccess?: AccessLevel;
}

/** An environment as the API answers it to `member`. */
const shown = (environment: EnvironmentRecord, member: MemberRecord) => ({
  name: environment.name,
  createdAt: environment.createdAt,
  secretCount: environment.secretCount,
  access: accessIn(member, environment),
  protected: isProtected(environment),
  approvals: environment.approvals ?? DEFAULT_APPROVALS,
  defaultAccess: defaultAccessOf(environment),
});

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
    return listed
      .map((environment) => shown(environment, membership))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };

  /** Adds an empty environment to a project the caller manages. */
  const createEnvironment = async (
    caller: Principal,
    projectId: string,
    name: string,
    origin: RequestOrigin,
    now: Date,
  ) => {
    const manager = await requireManager(caller, projectId);
    const environment: EnvironmentRecord = { projectId, name, createdAt: toIso(now), secretCount: 0, life: newLife() };
    const event = auditEvent('environment.created', origin, now, { projectId }, { environment: name });
    await environments.createEnvironment(caller.userId, environment, event);
    return shown(environment, manager);
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

  /**
   * Changes the settings of an environment of a project the caller manages: whether it is protected,
   * the approvals a change request needs there, and a plain member's access unless set for them.
   */
  const updateEnvironment = async (
    caller: Principal,
    projectId: string,
    name: string,
    settings: EnvironmentSettings,
    origin: RequestOrigin,
    now: Date,
  ) => {
    const [manager, environment] = await Promise.all([
      requireManager(caller, projectId),
      environments.getEnvironment(projectId, name),
    ]);
    if (!environment) throw new NotFoundError(ErrorText.environmentNotFound);
    const changed: EnvironmentRecord = { ...environment, ...settings };
    const event = auditEvent('environment.updated', origin, now, { projectId }, { environment: name, ...settings });
    if (!(await environments.updateEnvironment(caller.userId, changed, event))) {
      // The caller stopped managing the project, or the environment went: say which.
      await requireManager(caller, projectId);
      throw new NotFoundError(ErrorText.environmentNotFound);
    }
    return shown(changed, manager);
  };

  return { listEnvironments, createEnvironment, updateEnvironment, deleteEnvironment };
};
