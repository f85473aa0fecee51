import type { AuditEvent } from '@contract/audit';
import { normalizeEmail } from '@contract/email';
import { auditEvent, systemOrigin } from '@lambdas/domain/audit';
import { NotFoundError } from '@lambdas/domain/errors';
import type { UserProfile } from '@lambdas/domain/records';
import type { ProjectStore, UserDirectory } from './projects';
import type { TokenStore } from './tokens';

/** What offboarding reads and marks of a user (the user repository). */
export interface OffboardingUsers extends Pick<UserDirectory, 'getEmailClaim'> {
  getUserProfile(userId: string): Promise<UserProfile | undefined>;
  /** Marks the profile offboarded at `now`: no session issued at or before it is let in. */
  markProfileOffboarded(userId: string, now: Date): Promise<void>;
  /** Marks the claim on `email` offboarded, if `userId` still holds it: the address finds nobody. */
  releaseEmailClaim(email: string, userId: string, now: Date): Promise<void>;
}

/** The ports of offboarding: users, their memberships and tokens, and the trail for its last event. */
export interface OffboardingPorts {
  readonly users: OffboardingUsers;
  readonly projects: Pick<ProjectStore, 'listMembershipsByUser'> & {
    /** Removes a membership other than an ownership, with its event; answers whether it did. */
    deleteMembershipUnlessOwner(projectId: string, userId: string, event: AuditEvent): Promise<boolean>;
  };
  readonly tokens: Pick<TokenStore, 'listByUser' | 'revoke'> & {
    /** Marks the user's token slots offboarded at `now`; answers the ids of the tokens they hold a slot for. */
    markOffboarded(userId: string, now: Date): Promise<string[]>;
  };
  readonly audit: {
    /** Writes one event into the user's trail (and the project's, when it names one). */
    recordAuditEvent(event: AuditEvent, trails: { userId: string; projectId: string | null }): Promise<void>;
  };
}

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
const resolveUser = async (users: OffboardingUsers, who: string): Promise<string> => {
  if (!who.includes('@')) return who.trim();
  const email = normalizeEmail(who);
  const claim = email === undefined ? undefined : await users.getEmailClaim(email);
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
export const offboardUser = async (
  { users, projects, tokens, audit }: OffboardingPorts,
  who: string,
  now: Date,
): Promise<OffboardingReport> => {
  const userId = await resolveUser(users, who);
  const profile = await users.getUserProfile(userId);
  const alreadyOffboardedAt =
    profile?.offboardedAt !== undefined && !((profile.sessionIssuedAt ?? '') > profile.offboardedAt)
      ? profile.offboardedAt
      : undefined;
  await users.markProfileOffboarded(userId, now);
  const slotted = await tokens.markOffboarded(userId, now);
  if (profile?.email !== undefined) await users.releaseEmailClaim(profile.email, userId, now);
  const memberships = await projects.listMembershipsByUser(userId, true);
  const removedFrom: string[] = [];
  for (const membership of memberships.filter((member) => member.role !== 'owner')) {
    const { projectId } = membership;
    const event = auditEvent('member.removed', systemOrigin, now, { projectId, userId, email: profile?.email });
    if (await projects.deleteMembershipUnlessOwner(projectId, userId, event)) removedFrom.push(projectId);
  }
  const listed = await tokens.listByUser(userId);
  const revokedTokens: string[] = [];
  for (const tokenId of new Set([...slotted, ...listed.map((token) => token.tokenId)])) {
    try {
      await tokens.revoke(userId, tokenId, auditEvent('token.revoked', systemOrigin, now, { tokenId }));
      revokedTokens.push(tokenId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  // A second run that found nothing left to do adds no second `user.offboarded` to the trail.
  if (alreadyOffboardedAt === undefined || revokedTokens.length > 0 || removedFrom.length > 0) {
    const offboarded = auditEvent('user.offboarded', systemOrigin, now, { userId, email: profile?.email ?? null });
    await audit.recordAuditEvent(offboarded, { userId, projectId: null });
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
