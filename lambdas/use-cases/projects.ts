import { getProfileByEmail } from '@lambdas/data/profile-repository';
import {
  createProjectWithOwner,
  deleteMemberIfAllowed,
  getMember,
  listMembershipsByEmail,
  listMembers as listStoredMembers,
  type MemberRecord,
  putMemberIfAbsent,
} from '@lambdas/data/project-repository';
import { toIso } from '@lambdas/domain/clock';
import { ConflictError, ErrorText, ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import { newProjectId } from '@lambdas/domain/ids';
import type { Principal } from '@lambdas/domain/principal';
import { canManageMembers, compareMembers } from '@lambdas/domain/roles';

/** Creates a project; the caller becomes its owner. */
export const createProject = async (caller: Principal, name: string, now: Date) => {
  const project = { projectId: newProjectId(), name, createdAt: toIso(now) };
  await createProjectWithOwner(project, caller);
  return project;
};

/** The projects the caller belongs to, with the caller's role, oldest first. */
export const listProjects = async (caller: Principal) =>
  (await listMembershipsByEmail(caller.email))
    .map((member) => ({
      projectId: member.projectId,
      name: member.projectName,
      createdAt: member.projectCreatedAt,
      role: member.role,
    }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.projectId.localeCompare(b.projectId));

/** The members of a project the caller belongs to (otherwise 404, so no project's existence leaks). */
export const listMembers = async (caller: Principal, projectId: string) => {
  const members = await listStoredMembers(projectId);
  if (!members.some((member) => member.email === caller.email)) throw new NotFoundError(ErrorText.projectNotFound);
  return members.sort(compareMembers).map(({ userId, email, role }) => ({ userId, email, role }));
};

const requireManager = async (caller: Principal, projectId: string): Promise<MemberRecord> => {
  const membership = await getMember(projectId, caller.email);
  if (!membership) throw new NotFoundError(ErrorText.projectNotFound);
  if (!canManageMembers(membership.role)) throw new ForbiddenError(ErrorText.projectRole);
  return membership;
};

/** Adds a user who has signed in once to a project the caller manages. */
export const addMember = async (
  caller: Principal,
  projectId: string,
  request: { email: string; role: 'member' | 'admin' },
  now: Date,
): Promise<void> => {
  // Independent reads, side by side: one round trip instead of two before the write.
  const [manager, profile] = await Promise.all([
    requireManager(caller, projectId),
    getProfileByEmail(request.email, true),
  ]);
  if (!profile) throw new NotFoundError(ErrorText.userNotFound);
  await putMemberIfAbsent(manager, {
    projectId,
    projectName: manager.projectName,
    projectCreatedAt: manager.projectCreatedAt,
    email: profile.email,
    userId: profile.userId,
    role: request.role,
    addedAt: toIso(now),
  });
};

/** Removes a member other than the owner from a project the caller manages. */
export const removeMember = async (caller: Principal, projectId: string, email: string): Promise<void> => {
  // The write checks the caller's role itself; the reads only run to explain a refusal.
  if (await deleteMemberIfAllowed(projectId, caller.email, email)) return;
  await requireManager(caller, projectId);
  const target = await getMember(projectId, email);
  throw target?.role === 'owner'
    ? new ConflictError(ErrorText.ownerRemoval)
    : new NotFoundError(ErrorText.memberNotFound);
};
