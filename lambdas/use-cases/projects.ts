import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { DEFAULT_ENVIRONMENTS } from '@contract/limits';
import type { AccessLevel } from '@contract/roles';
import { addedNotice } from '@lambdas/domain/added-notice';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { accessIn } from '@lambdas/domain/environment-access';
import { ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import { type Ids, newLife } from '@lambdas/domain/ids';
import type { Principal } from '@lambdas/domain/principal';
import type {
  EmailClaim,
  EnvironmentRecord,
  MemberRecord,
  ProjectRecord,
  SetAccess,
  UserProfile,
} from '@lambdas/domain/records';
import { canManageMembers, compareMembers } from '@lambdas/domain/roles';

/** What the project use cases read and write (the project repository; an in-memory fake in unit tests). */
export interface ProjectStore {
  /** Stores a project and its owner's membership with the event, together. */
  createProjectWithOwner(
    project: ProjectRecord,
    ownerUserId: string,
    environments: readonly EnvironmentRecord[],
    event: AuditEvent,
  ): Promise<void>;
  /** A user's memberships; strongly consistent when asked. */
  listMembershipsByUser(userId: string, consistent: boolean): Promise<MemberRecord[]>;
  /** One membership, strongly consistent. */
  getMember(projectId: string, userId: string): Promise<MemberRecord | undefined>;
  /** Every member of a project, strongly consistent. */
  listMembers(projectId: string): Promise<MemberRecord[]>;
  /** A project's environments, strongly consistent. */
  listEnvironments(projectId: string): Promise<EnvironmentRecord[]>;
  /**
   * Sets a plain member's access with the event while `managerUserId` still manages the project,
   * `email` still finds the member and their access is still at the revision read: `changed` when it
   * is not (read again), `refused` when the manager or the claim no longer holds.
   */
  setMemberAccess(
    managerUserId: string,
    member: MemberRecord,
    email: string,
    event: AuditEvent,
  ): Promise<'written' | 'changed' | 'refused'>;
  /**
   * Adds a member with the event while `manager` still manages the project and `email` still finds the
   * member: 409 for a member already, 404 (project or user) otherwise.
   */
  putMemberIfAbsent(manager: MemberRecord, member: MemberRecord, email: string, event: AuditEvent): Promise<void>;
  /**
   * Marks a member's own copy of their membership opened, if it holds a notice not opened yet; answers
   * whether it did (false: no such membership, or nothing to open).
   */
  markMembershipSeen(projectId: string, userId: string, seenAt: string): Promise<boolean>;
  /** Removes a membership unless it is the owner's, with the event; answers whether it did. */
  deleteMembershipUnlessOwner(projectId: string, userId: string, event: AuditEvent): Promise<boolean>;
  /** Removes a member other than the owner if the caller may; answers whether it did (false: nothing changed). */
  deleteMemberIfAllowed(
    projectId: string,
    callerUserId: string,
    member: { userId: string; email: string },
    event: AuditEvent,
  ): Promise<boolean>;
}

/** Who users are: their profiles and the claims on their addresses (the user repository). */
export interface UserDirectory {
  /** Who holds an address, offboarded or not. */
  getEmailClaim(email: string): Promise<EmailClaim | undefined>;
  /** The profiles of those of these users who have one. */
  getUserProfiles(userIds: readonly string[]): Promise<UserProfile[]>;
}

/** The ports of the project use cases. */
export interface ProjectPorts {
  readonly projects: ProjectStore;
  readonly users: UserDirectory;
  readonly ids: Pick<Ids, 'newProjectId'>;
}

/** Attempts of an access change whose member another change moved first. */
const ACCESS_ATTEMPTS = 5;

/** A member as the API answers it, under `email`, with their access to each of `environments`. */
const shownMember = (member: MemberRecord, email: string, environments: readonly EnvironmentRecord[]) => ({
  userId: member.userId,
  email,
  role: member.role,
  access: Object.fromEntries(
    [...environments]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((environment) => [environment.name, accessIn(member, environment)]),
  ) as Record<string, AccessLevel>,
});

/** The project use cases over their ports. */
export const projectUseCases = ({ projects, users, ids }: ProjectPorts) => {
  /** Creates a project; the caller becomes its owner. */
  const createProject = async (caller: Principal, name: string, origin: RequestOrigin, now: Date) => {
    const project = { projectId: ids.newProjectId(), name, createdAt: toIso(now) };
    const event = auditEvent('project.created', origin, now, { projectId: project.projectId }, { name });
    const environments = DEFAULT_ENVIRONMENTS.map((name) => ({
      projectId: project.projectId,
      name,
      createdAt: project.createdAt,
      secretCount: 0,
      life: newLife(),
    }));
    await projects.createProjectWithOwner(project, caller.userId, environments, event);
    return project;
  };

  /**
   * The projects the caller belongs to, with the caller's role and, until they open it, who added them
   * and when; oldest first.
   */
  const listProjects = async (caller: Principal) =>
    (await projects.listMembershipsByUser(caller.userId, false))
      .map((member) => {
        const notice = addedNotice(member);
        return {
          projectId: member.projectId,
          name: member.projectName,
          createdAt: member.projectCreatedAt,
          role: member.role,
          addedBy: notice?.addedBy ?? null,
          addedAt: notice?.addedAt ?? null,
        };
      })
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.projectId.localeCompare(b.projectId));

  /**
   * The members of a project the caller belongs to (otherwise 404, so no project's existence leaks),
   * each under the address of their latest verified session.
   */
  const listMembers = async (caller: Principal, projectId: string) => {
    const [members, environments] = await Promise.all([
      projects.listMembers(projectId),
      projects.listEnvironments(projectId),
    ]);
    if (!members.some((member) => member.userId === caller.userId)) throw new NotFoundError(ErrorText.projectNotFound);
    const emails = new Map(
      (await users.getUserProfiles(members.map((member) => member.userId))).map((profile) => [
        profile.userId,
        profile.email,
      ]),
    );
    return members
      .map((member) => shownMember(member, emails.get(member.userId) ?? '', environments))
      .sort(compareMembers);
  };

  /** The user an address finds: the holder of its claim, unless they were offboarded. */
  const findUserByEmail = async (email: string): Promise<EmailClaim | undefined> => {
    const claim = await users.getEmailClaim(email);
    return claim?.offboardedAt === undefined ? claim : undefined;
  };

  const requireManager = async (caller: Principal, projectId: string): Promise<MemberRecord> => {
    const membership = await projects.getMember(projectId, caller.userId);
    if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
    if (!canManageMembers(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
    return membership;
  };

  /** Adds the user who holds this verified address (they have signed in once) to a project the caller manages. */
  const addMember = async (
    caller: Principal,
    projectId: string,
    request: { email: string; role: 'member' | 'admin' },
    origin: RequestOrigin,
    now: Date,
  ): Promise<void> => {
    // Independent reads, side by side: one round trip instead of two before the write.
    const [manager, user] = await Promise.all([requireManager(caller, projectId), findUserByEmail(request.email)]);
    if (!user) throw new NotFoundError(ErrorText.userNotFound);
    const event = auditEvent(
      'member.added',
      origin,
      now,
      { projectId, userId: user.userId, email: request.email },
      { role: request.role },
    );
    await projects.putMemberIfAbsent(
      manager,
      {
        projectId,
        projectName: manager.projectName,
        projectCreatedAt: manager.projectCreatedAt,
        userId: user.userId,
        role: request.role,
        addedAt: toIso(now),
        addedBy: { userId: caller.userId, email: caller.email ?? null },
      },
      request.email,
      event,
    );
  };

  /** Removes the member who holds this address, other than the owner, from a project the caller manages. */
  const removeMember = async (
    caller: Principal,
    projectId: string,
    email: string,
    origin: RequestOrigin,
    now: Date,
  ): Promise<void> => {
    const user = await findUserByEmail(email);
    // The write checks the caller's role itself; the reads below only run to explain a refusal.
    if (user) {
      const event = auditEvent('member.removed', origin, now, { projectId, userId: user.userId, email });
      if (await projects.deleteMemberIfAllowed(projectId, caller.userId, { userId: user.userId, email }, event)) return;
    }
    await requireManager(caller, projectId);
    const target = user && (await projects.getMember(projectId, user.userId));
    throw target?.role === 'owner'
      ? new ConflictError(ErrorText.ownerRemoval)
      : new NotFoundError(ErrorText.memberNotFound);
  };

  /**
   * Takes the caller out of a project they belong to, unless they own it (409): an owner cannot leave
   * their project ownerless. Anyone else is told there is no such project (404).
   */
  const leaveProject = async (caller: Principal, projectId: string, origin: RequestOrigin, now: Date) => {
    const event = auditEvent('member.left', origin, now, {
      projectId,
      userId: caller.userId,
      email: caller.email ?? null,
    });
    if (await projects.deleteMembershipUnlessOwner(projectId, caller.userId, event)) return;
    // The write checked the membership itself; this read only explains its refusal.
    const membership = await projects.getMember(projectId, caller.userId);
    throw membership ? new ConflictError(ErrorText.ownerRemoval) : new NotFoundError(ErrorText.projectNotFound);
  };

  /**
   * Marks a project the caller was added to as opened: the notice of who added them goes. A membership
   * without one (an owner's, one opened already, one older than notices) has nothing to mark; a caller
   * who is no member is told there is no such project (404).
   */
  const markMembershipSeen = async (caller: Principal, projectId: string, now: Date): Promise<void> => {
    if (await projects.markMembershipSeen(projectId, caller.userId, toIso(now))) return;
    if (!(await projects.getMember(projectId, caller.userId))) throw new NotFoundError(ErrorText.projectNotFound);
  };

  /**
   * Sets the access of the plain member who holds this address to some environments of a project the
   * caller manages; the other environments keep theirs. Owners and admins write everywhere (409).
   */
  const setMemberAccess = async (
    caller: Principal,
    projectId: string,
    email: string,
    access: Readonly<Record<string, AccessLevel>>,
    origin: RequestOrigin,
    now: Date,
  ) => {
    const [manager, user, environments] = await Promise.all([
      requireManager(caller, projectId),
      findUserByEmail(email),
      projects.listEnvironments(projectId),
    ]);
    const named = new Map(environments.map((environment) => [environment.name, environment]));
    const event = auditEvent(
      'member.access_changed',
      origin,
      now,
      { projectId, userId: user?.userId ?? null, email },
      { access: { ...access } },
    );
    for (let attempt = 1; attempt <= ACCESS_ATTEMPTS; attempt += 1) {
      const member = user && (await projects.getMember(projectId, user.userId));
      if (!user || !member) throw new NotFoundError(ErrorText.memberNotFound);
      if (member.role !== 'member') throw new ConflictError(ErrorText.accessFixed);
      const set: Record<string, SetAccess> = {};
      for (const [name, level] of Object.entries(member.access ?? {})) if (named.has(name)) set[name] = level;
      for (const [name, level] of Object.entries(access)) {
        const environment = named.get(name);
        if (!environment) throw new NotFoundError(ErrorText.environmentNotFound);
        set[name] = environment.life === undefined ? { level } : { level, life: environment.life };
      }
      const changed: MemberRecord = { ...member, access: set };
      const outcome = await projects.setMemberAccess(manager.userId, changed, email, event);
      if (outcome === 'written') return shownMember(changed, email, environments);
      if (outcome === 'refused') throw new NotFoundError(ErrorText.projectNotFound);
    }
    throw new ServiceUnavailableError();
  };

  return {
    createProject,
    listProjects,
    listMembers,
    addMember,
    removeMember,
    leaveProject,
    markMembershipSeen,
    setMemberAccess,
  };
};
