import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { DEFAULT_ENVIRONMENTS } from '@contract/limits';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { ConflictError, ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import { type Ids, newLife } from '@lambdas/domain/ids';
import type { Principal } from '@lambdas/domain/principal';
import type { EmailClaim, EnvironmentRecord, MemberRecord, ProjectRecord, UserProfile } from '@lambdas/domain/records';
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
  /**
   * Adds a member with the event while `manager` still manages the project and `email` still finds the
   * member: 409 for a member already, 404 (project or user) otherwise.
   */
  putMemberIfAbsent(manager: MemberRecord, member: MemberRecord, email: string, event: AuditEvent): Promise<void>;
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

  /** The projects the caller belongs to, with the caller's role, oldest first. */
  const listProjects = async (caller: Principal) =>
    (await projects.listMembershipsByUser(caller.userId, false))
      .map((member) => ({
        projectId: member.projectId,
        name: member.projectName,
        createdAt: member.projectCreatedAt,
        role: member.role,
      }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.projectId.localeCompare(b.projectId));

  /**
   * The members of a project the caller belongs to (otherwise 404, so no project's existence leaks),
   * each under the address of their latest verified session.
   */
  const listMembers = async (caller: Principal, projectId: string) => {
    const members = await projects.listMembers(projectId);
    if (!members.some((member) => member.userId === caller.userId)) throw new NotFoundError(ErrorText.projectNotFound);
    const emails = new Map(
      (await users.getUserProfiles(members.map((member) => member.userId))).map((profile) => [
        profile.userId,
        profile.email,
      ]),
    );
    return members.map(({ userId, role }) => ({ userId, email: emails.get(userId) ?? '', role })).sort(compareMembers);
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

  return { createProject, listProjects, listMembers, addMember, removeMember };
};
