import { normalizeEmail } from '@contract/email';
import { recordAuditEvent } from '@lambdas/data/audit-repository';
import { deleteMembershipUnlessOwner, listMembershipsByUser } from '@lambdas/data/project-repository';
import { listTokensByUser, markOffboarded, revokeToken } from '@lambdas/data/token-repository';
import {
  findUserByEmail,
  getUserProfile,
  markProfileOffboarded,
  releaseEmailClaim,
} from '@lambdas/data/user-repository';
import { auditEvent, systemOrigin } from '@lambdas/domain/audit';
import { NotFoundError } from '@lambdas/domain/errors';

/** What an offboarding did; running it again reports what was left to do (usually nothing). */
export interface OffboardingReport {
  readonly userId: string;
  /** The address of the user's latest session, if they ever signed in. */
  readonly email: string | undefined;
  /** Tokens revoked by this run. */
  readonly revokedTokens: readonly string[];
  /** Projects the user was removed from by this run. */
  readonly removedFrom: readonly string[];
  /** Projects the user owns: an owner is never removed, so an operator must transfer or close them. */
  readonly ownedProjects: readonly string[];
}

/** The user an operator named: an e-mail address (resolved to whoever holds it) or a user id. */
const resolveUser = async (who: string): Promise<string> => {
  if (!who.includes('@')) return who.trim();
  const email = normalizeEmail(who);
  const claim = email === undefined ? undefined : await findUserByEmail(email);
  if (!claim) throw new NotFoundError(`No user holds the address ${who.trim()}`);
  return claim.userId;
};

/**
 * Offboards a user: from now on no session issued earlier may create tokens, every token of theirs is
 * revoked, every membership but an ownership is removed, and their address finds nobody until a
 * session issued after now records their profile again. Each step is idempotent, so a run that fails half-way is simply run again. The
 * token ids come from the slots (strongly consistent, so a token created just before the mark is
 * among them) and from the token list (expired tokens, whose slots are freed).
 */
export const offboardUser = async (who: string, now: Date): Promise<OffboardingReport> => {
  const userId = await resolveUser(who);
  const [slotted, listed, memberships, profile] = await Promise.all([
    markOffboarded(userId, now),
    listTokensByUser(userId),
    listMembershipsByUser(userId),
    getUserProfile(userId),
  ]);
  const revokedTokens: string[] = [];
  for (const tokenId of new Set([...slotted, ...listed.map((token) => token.tokenId)])) {
    try {
      await revokeToken(userId, tokenId, auditEvent('token.revoked', systemOrigin, now, { tokenId }));
      revokedTokens.push(tokenId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const removedFrom: string[] = [];
  for (const membership of memberships.filter((member) => member.role !== 'owner')) {
    const { projectId } = membership;
    const event = auditEvent('member.removed', systemOrigin, now, { projectId, userId, email: profile?.email });
    if (await deleteMembershipUnlessOwner(projectId, userId, event)) removedFrom.push(projectId);
  }
  if (profile) {
    await markProfileOffboarded(userId, now);
    await releaseEmailClaim(profile.email, userId);
  }
  const offboarded = auditEvent('user.offboarded', systemOrigin, now, { userId, email: profile?.email ?? null });
  await recordAuditEvent(offboarded, { userId, projectId: null });
  return {
    userId,
    email: profile?.email,
    revokedTokens: revokedTokens.sort(),
    removedFrom: removedFrom.sort(),
    ownedProjects: memberships
      .filter((member) => member.role === 'owner')
      .map((member) => member.projectId)
      .sort(),
  };
};
