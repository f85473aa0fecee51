import { listProjectAuditEvents, listUserAuditEvents, recordAuditEvent } from '@lambdas/data/audit-repository';
import { listDueNotices, retireExpiryNotice, sendExpiryNotice } from '@lambdas/data/expiry-notice-repository';
import {
  createProjectWithOwner,
  deleteMemberIfAllowed,
  deleteMembershipUnlessOwner,
  getMember,
  listMembers,
  listMembershipsByUser,
  putMemberIfAbsent,
} from '@lambdas/data/project-repository';
import { getTokenById, listTokensByUser } from '@lambdas/data/token-repository';
import {
  createTokenWithinLimit,
  markOffboarded,
  replaceTokenWithinLimit,
  revokeToken,
} from '@lambdas/data/token-slot-repository';
import {
  getEmailClaim,
  getUserProfile,
  getUserProfiles,
  markProfileOffboarded,
  releaseEmailClaim,
} from '@lambdas/data/user-repository';
import { randomIds } from '@lambdas/domain/ids';
import { auditUseCases } from '@lambdas/use-cases/audit';
import { sendExpiryNotices } from '@lambdas/use-cases/expiry-notices';
import { offboardUser } from '@lambdas/use-cases/offboard';
import { projectUseCases } from '@lambdas/use-cases/projects';
import { tokenUseCases } from '@lambdas/use-cases/tokens';

/*
 * The composition root: the use cases wired, once when a function starts, to the DynamoDB repositories
 * (whose client reads the table's configuration then) and to random ids. Route modules and the event
 * functions take their use cases from here; unit tests wire the same use cases to in-memory fakes.
 * Nothing in data/, domain/ or use-cases/ imports this module.
 */

const tokenStore = {
  get: getTokenById,
  listByUser: listTokensByUser,
  create: createTokenWithinLimit,
  replace: replaceTokenWithinLimit,
  revoke: revokeToken,
};

/** Creating, listing, revoking and rotating the caller's tokens. */
export const tokens = tokenUseCases({ tokens: tokenStore, ids: randomIds });

/** Creating projects and managing their members. */
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

/** Reading the caller's trail and their projects' trails. */
export const auditTrails = auditUseCases({
  audit: { listUserAuditEvents, listProjectAuditEvents },
  members: { getMember },
});

/** Offboarding a user: the operator's command and the function Cognito's events call. */
export const offboarding = {
  offboardUser: (who: string, now: Date) =>
    offboardUser(
      {
        users: { getEmailClaim, getUserProfile, markProfileOffboarded, releaseEmailClaim },
        projects: { listMembershipsByUser, deleteMembershipUnlessOwner },
        tokens: { ...tokenStore, markOffboarded },
        audit: { recordAuditEvent },
      },
      who,
      now,
    ),
};

/** The hourly run that sends the expiry notices due (the scheduled function and the operator's command). */
export const expiryNotices = {
  sendExpiryNotices: (now: Date) => sendExpiryNotices({ listDueNotices, sendExpiryNotice, retireExpiryNotice }, now),
};
