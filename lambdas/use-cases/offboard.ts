import { normalizeEmail } from '@contract/email';
import { recordAuditEvent } from '@lambdas/data/audit-repository';
import { deleteMembershipUnlessOwner, listMembershipsByUser } from '@lambdas/data/project-repository';
import { listTokensByUser } from '@lambdas/data/token-repository';
import { markOffboarded, revokeToken } from '@lambdas/data/token-slot-repository';
import { getEmailClaim, getUserProfile, markProfileOffboarded, releaseEmailClaim } from '@lambdas/data/user-repository';
import { auditEvent, systemOrigin } from '@lambdas/domain/audit';
import { NotFoundError } from '@lambdas/domain/errors';

/** What an offboarding did; running it again reports what was left to do (usually nothing). */
export interface OffboardingReport {
  readonly userId: string;
  /** The address of the user's newest session, if they ever signed in. */
  readonly email: string | undefined;
  /** When an earlier run had offboarded the user already, and no session since has signed them in. */
  readonly alreadyOffboardedAt: string | undefined;
  /** Tokens revoked by this run. */
  readonly revokedTokens: readonly string[];
  /** Projects the user was removed from by this run. */
  readonly removedFrom: readonly string[];
  /** Projects the user owns: an owner is never removed, so an operator must transfer or close them. */
  readonly ownedProjects: readonly string[];
}

/**
 * The user an operator named: an e-mail address (resolved to whoever holds it, or held it until they
 * were offboarded) or a user id.
 */
const resolveUser = async (who: string): Promise<string> => {
  if (!who.includes('@')) return who.trim();
  const email = normalizeEmail(who);
  const claim = email === undefined ? undefined : await getEmailClaim(email);
  if (!claim) throw new NotFoundError(`No user holds the address ${who.trim()}`);
  return claim.userId;
};

/**
 * Offboards a user. First the mark: from now on no session issued at or before it is let in on any
 * route, nor records anything; then their address stops finding them, so no member can be added by it;
 * only then are their memberships read (strongly consistent, from their own partition), so a member
 * added while this runs is among them, and removed but ownerships; last, every token is revoked. The
 * token ids come from the slots (strongly consistent, so a token created just before the mark is
 * among them) and from the token list (expired tokens, whose slots are freed). Each step is
 * idempotent, so a run that fails half-way is simply run again, and a second run does no harm.
 */
export const offboardUser = async (who: string, now: Date): Promise<OffboardingReport> => {
  const userId = await resolveUser(who);
  const profile = await getUserProfile(userId);
  const alreadyOffboardedAt =
    profile?.offboardedAt !== undefined && !((profile.sessionIssuedAt ?? '') > profile.offboardedAt)
      ? profile.offboardedAt
      : undefined;
  await markProfileOffboarded(userId, now);
  const slotted = await markOffboarded(userId, now);
  if (profile?.email !== undefined) await releaseEmailClaim(profile.email, userId, now);
  const memberships = await listMembershipsByUser(userId, true);
  const removedFrom: string[] = [];
  for (const membership of memberships.filter((member) => member.role !== 'owner')) {
    const { projectId } = membership;
    const event = auditEvent('member.removed', systemOrigin, now, { projectId, userId, email: profile?.email });
    if (await deleteMembershipUnlessOwner(projectId, userId, event)) removedFrom.push(projectId);
  }
  const listed = await listTokensByUser(userId);
  const revokedTokens: string[] = [];
  for (const tokenId of new Set([...slotted, ...listed.map((token) => token.tokenId)])) {
    try {
      await revokeToken(userId, tokenId, auditEvent('token.revoked', systemOrigin, now, { tokenId }));
      revokedTokens.push(tokenId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  // A second run that found nothing left to do adds no second `user.offboarded` to the trail.
  if (alreadyOffboardedAt === undefined || revokedTokens.length > 0 || removedFrom.length > 0) {
    const offboarded = auditEvent('user.offboarded', systemOrigin, now, { userId, email: profile?.email ?? null });
    await recordAuditEvent(offboarded, { userId, projectId: null });
  }
  return {
    userId,
    email: profile?.email,
    alreadyOffboardedAt,
    revokedTokens: revokedTokens.sort(),
    removedFrom: removedFrom.sort(),
    ownedProjects: memberships
      .filter((member) => member.role === 'owner')
      .map((member) => member.projectId)
      .sort(),
  };
};
