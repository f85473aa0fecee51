import { recordAuditEvent } from '@lambdas/data/audit-repository';
import { deleteMembershipUnlessOwner, listMembershipsByUser } from '@lambdas/data/project-repository';
import { listTokensByUser } from '@lambdas/data/token-repository';
import { markOffboarded, revokeToken } from '@lambdas/data/token-slot-repository';
import { getEmailClaim, getUserProfile, markProfileOffboarded, releaseEmailClaim } from '@lambdas/data/user-repository';
import { type OffboardingPorts, offboardUser } from '@lambdas/use-cases/offboard';

const ports: OffboardingPorts = {
  users: { getEmailClaim, getUserProfile, markProfileOffboarded, releaseEmailClaim },
  projects: { listMembershipsByUser, deleteMembershipUnlessOwner },
  tokens: { listByUser: listTokensByUser, revoke: revokeToken, markOffboarded },
  audit: { recordAuditEvent },
};

/** Offboarding a user (the composition root of the function Cognito's events call, and of `npm run offboard`). */
export const offboarding = {
  offboardUser: (who: string, now: Date) => offboardUser(ports, who, now),
};
