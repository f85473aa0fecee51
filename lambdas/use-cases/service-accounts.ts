import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import type { ServiceAccountLevel } from '@contract/roles';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type {
  EnvironmentRecord,
  MemberRecord,
  ServiceAccountAccess,
  ServiceAccountRecord,
} from '@lambdas/domain/records';
import { canManageMembers } from '@lambdas/domain/roles';

/** What the service account use cases read and write (the repositories; in-memory fakes in unit tests). */
export interface ServiceAccountStore {
  /** One membership, strongly consistent. */
  getMember(projectId: string, userId: string): Promise<MemberRecord | undefined>;
  /** A project's environments, strongly consistent. */
  listEnvironments(projectId: string): Promise<EnvironmentRecord[]>;
  /** A project's service accounts, strongly consistent. */
  listServiceAccounts(projectId: string): Promise<ServiceAccountRecord[]>;
  /** One service account, strongly consistent. */
  getServiceAccount(projectId: string, serviceAccountId: string): Promise<ServiceAccountRecord | undefined>;
  /** Adds one with its event while the caller manages the project: 404 if no longer, 409 at the limit. */
  createServiceAccount(managerUserId: string, serviceAccount: ServiceAccountRecord, event: AuditEvent): Promise<void>;
  /** Stores one's name, description and access with the event while the caller manages the project and it exists: 404 else. */
  updateServiceAccount(managerUserId: string, serviceAccount: ServiceAccountRecord, event: AuditEvent): Promise<void>;
  /** Deletes one with its event while the caller manages the project: 404 if it is gone or the caller no longer manages. */
  deleteServiceAccount(
    managerUserId: string,
    projectId: string,
    serviceAccountId: string,
    event: AuditEvent,
  ): Promise<void>;
}

/** The ports of the service account use cases. */
export interface ServiceAccountPorts {
  readonly serviceAccounts: ServiceAccountStore;
  readonly newServiceAccountId: () => string;
}

/** Access levels by environment name, as a request gives them. */
export type AccessRequest = Readonly<Record<string, ServiceAccountLevel>>;

/** What a change of a service account gives: each field present is changed (a null description removes it). */
export interface ServiceAccountChanges {
  readonly name?: string;
  readonly description?: string | null;
  readonly access?: AccessRequest;
}

/** No description: none given, or only spaces. */
const describedAs = (text: string | null | undefined): string | null => (text ? text : null);

/**
 * The levels of `access` that hold in the environments that exist now, each in the life it was set in:
 * an environment deleted since (even if one of its name was made again) is none of the access.
 */
const currentAccess = (
  access: ServiceAccountRecord['access'],
  environments: readonly EnvironmentRecord[],
): Record<string, ServiceAccountLevel> => {
  const shown: Record<string, ServiceAccountLevel> = {};
  for (const environment of environments) {
    // Own properties only: an environment may be named `constructor`.
    const set = Object.hasOwn(access, environment.name) ? access[environment.name] : undefined;
    if (set !== undefined && set.life === environment.life) shown[environment.name] = set.level;
  }
  return shown;
};

/** A service account as the API answers it, with its access to the environments that exist. */
const shown = (serviceAccount: ServiceAccountRecord, environments: readonly EnvironmentRecord[]) => ({
  id: serviceAccount.serviceAccountId,
  name: serviceAccount.name,
  description: serviceAccount.description,
  access: currentAccess(serviceAccount.access, environments),
  createdAt: serviceAccount.createdAt,
  createdBy: serviceAccount.createdBy,
});

/** `requested` bound to the lives of the environments it names: 404 for one the project does not have. */
const boundAccess = (
  requested: AccessRequest,
  environments: readonly EnvironmentRecord[],
): Record<string, ServiceAccountAccess> => {
  const named = new Map(environments.map((environment) => [environment.name, environment]));
  const bound: Record<string, ServiceAccountAccess> = {};
  for (const [name, level] of Object.entries(requested)) {
    const environment = named.get(name);
    if (!environment) throw new NotFoundError(ErrorText.environmentNotFound);
    bound[name] = environment.life === undefined ? { level } : { level, life: environment.life };
  }
  return bound;
};

/** The service account use cases over their ports. */
export const serviceAccountUseCases = ({ serviceAccounts, newServiceAccountId }: ServiceAccountPorts) => {
  /** The caller's membership of the project (404 for a non-member). */
  const requireMember = async (caller: Principal, projectId: string): Promise<MemberRecord> => {
    const membership = await serviceAccounts.getMember(projectId, caller.userId);
    if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
    return membership;
  };

  /** The caller's membership, which must manage the project (owner or admin). */
  const requireManager = async (caller: Principal, projectId: string): Promise<MemberRecord> => {
    const membership = await requireMember(caller, projectId);
    if (!canManageMembers(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
    return membership;
  };

  /** Adds a service account to a project the caller manages, reaching the environments it names. */
  const createServiceAccount = async (
    caller: Principal,
    projectId: string,
    request: { readonly name: string; readonly description?: string; readonly access: AccessRequest },
    origin: RequestOrigin,
    now: Date,
  ) => {
    const [, environments] = await Promise.all([
      requireManager(caller, projectId),
      serviceAccounts.listEnvironments(projectId),
    ]);
    const serviceAccount: ServiceAccountRecord = {
      projectId,
      serviceAccountId: newServiceAccountId(),
      name: request.name,
      description: describedAs(request.description),
      access: boundAccess(request.access, environments),
      createdAt: toIso(now),
      createdBy: { userId: caller.userId, email: caller.email ?? null },
    };
    const event = auditEvent(
      'service_account.created',
      origin,
      now,
      { projectId, serviceAccountId: serviceAccount.serviceAccountId },
      { name: serviceAccount.name, access: { ...request.access } },
    );
    await serviceAccounts.createServiceAccount(caller.userId, serviceAccount, event);
    return shown(serviceAccount, environments);
  };

  /** The service accounts of a project the caller belongs to, by name (then id). */
  const listServiceAccounts = async (caller: Principal, projectId: string) => {
    // Side by side: the list is answered only if the membership says so.
    const [, listed, environments] = await Promise.all([
      requireMember(caller, projectId),
      serviceAccounts.listServiceAccounts(projectId),
      serviceAccounts.listEnvironments(projectId),
    ]);
    return listed
      .map((serviceAccount) => shown(serviceAccount, environments))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };

  /** One service account of a project the caller belongs to. */
  const getServiceAccount = async (caller: Principal, projectId: string, serviceAccountId: string) => {
    const [, serviceAccount, environments] = await Promise.all([
      requireMember(caller, projectId),
      serviceAccounts.getServiceAccount(projectId, serviceAccountId),
      serviceAccounts.listEnvironments(projectId),
    ]);
    if (!serviceAccount) throw new NotFoundError(ErrorText.serviceAccountNotFound);
    return shown(serviceAccount, environments);
  };

  /** Changes the name, description or whole access of a service account of a project the caller manages. */
  const updateServiceAccount = async (
    caller: Principal,
    projectId: string,
    serviceAccountId: string,
    changes: ServiceAccountChanges,
    origin: RequestOrigin,
    now: Date,
  ) => {
    const [, stored, environments] = await Promise.all([
      requireManager(caller, projectId),
      serviceAccounts.getServiceAccount(projectId, serviceAccountId),
      serviceAccounts.listEnvironments(projectId),
    ]);
    if (!stored) throw new NotFoundError(ErrorText.serviceAccountNotFound);
    const changed: ServiceAccountRecord = {
      ...stored,
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.description !== undefined && { description: describedAs(changes.description) }),
      ...(changes.access !== undefined && { access: boundAccess(changes.access, environments) }),
    };
    const event = auditEvent(
      'service_account.updated',
      origin,
      now,
      { projectId, serviceAccountId },
      { name: changed.name, access: currentAccess(changed.access, environments) },
    );
    await serviceAccounts.updateServiceAccount(caller.userId, changed, event);
    return shown(changed, environments);
  };

  /** Deletes a service account of a project the caller manages. */
  const deleteServiceAccount = async (
    caller: Principal,
    projectId: string,
    serviceAccountId: string,
    origin: RequestOrigin,
    now: Date,
  ): Promise<void> => {
    const [, stored] = await Promise.all([
      requireManager(caller, projectId),
      serviceAccounts.getServiceAccount(projectId, serviceAccountId),
    ]);
    if (!stored) throw new NotFoundError(ErrorText.serviceAccountNotFound);
    const event = auditEvent(
      'service_account.deleted',
      origin,
      now,
      { projectId, serviceAccountId },
      { name: stored.name },
    );
    await serviceAccounts.deleteServiceAccount(caller.userId, projectId, serviceAccountId, event);
  };

  return {
    createServiceAccount,
    listServiceAccounts,
    getServiceAccount,
    updateServiceAccount,
    deleteServiceAccount,
  };
};
