import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { DEFAULT_SHARE_HOURS, DEFAULT_SHARE_VIEWS, MAX_SHARE_VIEWS } from '@contract/limits';
import { auditEvent, type RequestOrigin } from '@lambdas/domain/audit';
import { toIso } from '@lambdas/domain/clock';
import { NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { Ids } from '@lambdas/domain/ids';
import type { Principal } from '@lambdas/domain/principal';
import type { EmailClaim, ShareRecord, ShareSummary } from '@lambdas/domain/records';

/** What the share use cases read and write (the share repository). */
export interface ShareStore {
  /** One share by id, strongly consistent. */
  get(shareId: string): Promise<ShareRecord | undefined>;
  /** The person's shares not yet spent (expired ones too), newest first, without ciphertexts. */
  listByUser(userId: string): Promise<ShareSummary[]>;
  /** Stores a share with its event, unless its creator would hold more than the limit of live shares (409). */
  create(share: ShareRecord, now: Date, event: AuditEvent): Promise<void>;
  /**
   * Spends one view of the share as read, with its event; false when its views changed since, or when
   * `heldAddress` is given and its claim no longer names that user.
   */
  spendView(share: ShareRecord, event: AuditEvent, heldAddress: HeldAddress | undefined): Promise<boolean>;
  /** Withdraws one of the person's live shares with its event; false when there is none of that id. */
  delete(userId: string, shareId: string, now: Date, event: AuditEvent): Promise<boolean>;
}

/** Who holds addresses now (the user repository). */
export interface AddressClaims {
  /** The claims on these addresses that exist, strongly consistent, offboarded or not. */
  getEmailClaims(emails: readonly string[]): Promise<EmailClaim[]>;
}

/** A recipient address and the caller who holds it now: a reveal holds only while the claim still says so. */
export interface HeldAddress {
  readonly email: string;
  readonly userId: string;
}

/** The ports of the share use cases. */
export interface SharePorts {
  readonly shares: ShareStore;
  readonly claims: AddressClaims;
  readonly ids: Pick<Ids, 'newShareId'>;
}

/** What the caller asked for. */
export interface NewShare {
  readonly ciphertext: string;
  readonly expiresInHours?: number;
  readonly maxViews?: number;
  /** Lower-cased by the contract's e-mail rule. */
  readonly recipients?: readonly string[];
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Reveals a share can lose to other reveals before its own is written: each loss is another reveal's
 * view spent, so after `MAX_SHARE_VIEWS` of them the share is gone and the next read says so.
 */
const MAX_REVEAL_ATTEMPTS = MAX_SHARE_VIEWS + 1;

/** A share as its creator's answers show it. */
const shown = (share: ShareSummary) => ({
  id: share.shareId,
  expiresAt: share.expiresAt,
  maxViews: share.maxViews,
  viewsLeft: share.viewsLeft,
  recipients: share.recipients ?? null,
});

/** The share use cases, wired to their ports. */
export const shareUseCases = ({ shares, claims, ids }: SharePorts) => {
  /**
   * The share and, when it names recipients, the one of them the caller holds now, if the caller may
   * see it at `now`: not expired (DynamoDB's TTL removes it only some time later), and, when it names
   * recipients, for the user whose newest session claimed one of those addresses, not offboarded.
   * The claim decides, never the e-mail a token or an older session carries: an address that moved to
   * another person moves its shares with it (docs/api.md, Shares). Every other case is the one 404,
   * so none tells that it exists.
   */
  const visibleShare = async (shareId: string, principal: Principal, now: Date) => {
    const share = await shares.get(shareId);
    if (!share || share.expiresAt <= toIso(now)) throw new NotFoundError(ErrorText.shareNotFound);
    if (share.recipients === undefined) return { share, heldAddress: undefined };
    const held = (await claims.getEmailClaims(share.recipients)).find(
      (claim) => claim.userId === principal.userId && claim.offboardedAt === undefined,
    );
    if (!held) throw new NotFoundError(ErrorText.shareNotFound);
    return { share, heldAddress: { email: held.email, userId: held.userId } };
  };

  return {
    /** Stores the caller's ciphertext for a few views and hours; the key stays with the caller. */
    async createShare(principal: Principal, input: NewShare, origin: RequestOrigin, now: Date) {
      const maxViews = input.maxViews ?? DEFAULT_SHARE_VIEWS;
      const share: ShareRecord = {
        shareId: ids.newShareId(),
        userId: principal.userId,
        creatorEmail: principal.email ?? null,
        ciphertext: input.ciphertext,
        createdAt: toIso(now),
        expiresAt: toIso(new Date(now.getTime() + (input.expiresInHours ?? DEFAULT_SHARE_HOURS) * HOUR_MS)),
        maxViews,
        viewsLeft: maxViews,
        ...(input.recipients && { recipients: input.recipients }),
      };
      const event = auditEvent(
        'share.created',
        origin,
        now,
        { shareId: share.shareId },
        { expiresAt: share.expiresAt, maxViews, viewsLeft: maxViews },
      );
      await shares.create(share, now, event);
      return shown(share);
    },

    /** Who shared it, its views left and expiry, for a caller it may reveal to; spends nothing. */
    async lookAtShare(principal: Principal, shareId: string, now: Date) {
      const { share } = await visibleShare(shareId, principal, now);
      return { viewsLeft: share.viewsLeft, expiresAt: share.expiresAt, createdBy: { email: share.creatorEmail } };
    },

    /**
     * Spends one view and answers the ciphertext: the write holds only if the views are still the ones
     * read, so under any concurrency a share of N views is revealed exactly N times. The event goes to
     * the creator's trail in the same write; no event, no ciphertext.
     */
    async revealShare(principal: Principal, shareId: string, origin: RequestOrigin, now: Date) {
      for (let attempt = 1; attempt <= MAX_REVEAL_ATTEMPTS; attempt += 1) {
        const { share, heldAddress } = await visibleShare(shareId, principal, now);
        const viewsLeft = share.viewsLeft - 1;
        const event = auditEvent(
          'share.revealed',
          origin,
          now,
          { shareId, userId: share.userId, email: share.creatorEmail },
          { viewsLeft },
        );
        if (await shares.spendView(share, event, heldAddress)) {
          return {
            ciphertext: share.ciphertext,
            viewsLeft,
            expiresAt: share.expiresAt,
            createdBy: { email: share.creatorEmail },
          };
        }
      }
      throw new ServiceUnavailableError();
    },

    /** The caller's live shares, newest first. */
    async listShares(principal: Principal, now: Date) {
      // A spent share is gone from the table (its last view deletes it); an expired one stays until the TTL.
      const live = (await shares.listByUser(principal.userId)).filter((share) => share.expiresAt > toIso(now));
      return live.map((share) => ({ ...shown(share), createdAt: share.createdAt }));
    },

    /** Withdraws one of the caller's live shares; 404 for anyone else's, and for one spent or expired. */
    async deleteShare(principal: Principal, shareId: string, origin: RequestOrigin, now: Date) {
      const event = auditEvent('share.deleted', origin, now, { shareId });
      if (!(await shares.delete(principal.userId, shareId, now, event))) {
        throw new NotFoundError(ErrorText.shareNotFound);
      }
    },
  };
};
