import { ErrorText } from '@contract/errors';
import {
  createProjectWithOwner,
  deleteMemberIfAllowed,
  getMember,
  listMembershipsByUser,
  listMembers as listStoredMembers,
  putMemberIfAbsent,
} from '@lambdas/data/project-repository';
import { getEmailClaim, getUserProfiles } from '@lambdas/data/user-repository';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { ConflictError, ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import { newProjectId } from '@lambdas/domain/ids';
import type { Principal } from '@lambdas/domain/principal';
import type { EmailClaim, MemberRecord } from '@lambdas/domain/records';
import { canManageMembers, compareMembers } from '@lambdas/domain/roles';

/** Creates a project; the caller becomes its owner. */
export const createProject = async (caller: Principal, name: string, origin: RequestOrigin, now: Date) => {
  const project = { projectId: newProjectId(), name, createdAt: toIso(now) };
  const event = auditEvent('project.created', origin, now, { projectId: project.projectId }, { name });
  await createProjectWithOwner(project, caller.userId, event);
  return project;
};

/** The projects the caller belongs to, with the caller's role, oldest first. */
export const listProjects = async (caller: Principal) =>
  (await listMembershipsByUser(caller.userId, false))
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
export const listMembers = async (caller: Principal, projectId: string) => {
  const members = await listStoredMembers(projectId);
  if (!members.some((member) => member.userId === caller.userId)) throw new NotFoundError(ErrorText.projectNotFound);
  const emails = new Map(
    (await getUserProfiles(members.map((member) => member.userId))).map((profile) => [profile.userId, profile.email]),
  );
  return members.map(({ userId, role }) => ({ userId, email: emails.get(userId) ?? '', role })).sort(compareMembers);
};

/** The user an address finds: the holder of its claim, unless they were offboarded. */
const findUserByEmail = async (email: string): Promise<EmailClaim | undefined> => {
  const claim = await getEmailClaim(email);
  return claim?.offboardedAt === undefined ? claim : undefined;
};

const requireManager = async (caller: Principal, projectId: string): Promise<MemberRecord> => {
  const membership = await getMember(projectId, caller.userId);
  if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
  if (!canManageMembers(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
  return membership;
};

/** Adds the user who holds this verified address (they have signed in once) to a project the caller manages. */
export const addMember = async (
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
  await putMemberIfAbsent(
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
export const removeMember = async (
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
    if (await deleteMemberIfAllowed(projectId, caller.userId, { userId: user.userId, email }, event)) return;
  }
  await requireManager(caller, projectId);
  const target = user && (await getMember(projectId, user.userId));
  throw target?.role === 'owner'
    ? new ConflictError(ErrorText.ownerRemoval)
    : new NotFoundError(ErrorText.memberNotFound);
};
