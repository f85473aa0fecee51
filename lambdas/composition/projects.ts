import {
  createProjectWithOwner,
  deleteMemberIfAllowed,
  getMember,
  listMembers,
  listMembershipsByUser,
  putMemberIfAbsent,
} from '@lambdas/data/project-repository';
import { getEmailClaim, getUserProfiles } from '@lambdas/data/user-repository';
import { randomIds } from '@lambdas/domain/ids';
import { projectUseCases } from '@lambdas/use-cases/projects';

/** Creating projects and managing their members (the composition root of their routes). */
export const projects = projectUseCases({
  projects: {
    createProjectWithOwner,
    listMembershipsByUser,
    getMember,
    listMembers,
    putMemberIfAbsent,
    deleteMemberIfAllowed,
  },
  users: { getEmailClaim, getUserProfiles },
  ids: randomIds,
});
