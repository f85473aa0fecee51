import { ErrorText } from '@contract/errors';
import { NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { EmailClaim, ShareRecord } from '@lambdas/domain/records';
import { type AddressClaims, type ShareStore, shareUseCases } from '@lambdas/use-cases/shares';
import { now, origin, sequentialIds, session } from './fakes';

const share = (fields: Partial<ShareRecord> = {}): ShareRecord => ({
  shareId: 'shr_1',
  userId: 'u-2',
  creatorEmail: 'bob@example.com',
  ciphertext: 'c2VhbGVk',
  createdAt: '2026-11-25T11:00:00.000Z',
  expiresAt: '2026-11-25T13:00:00.000Z',
  maxViews: 3,
  viewsLeft: 3,
  ...fields,
});

/**
 * A share store whose spend loses `losses` races first: each loss is another reveal's view spent
 * between the read and the write, as the repository's condition would see it.
 */
const racingStore = (stored: ShareRecord, losses: number) => {
  let current: ShareRecord | undefined = stored;
  let lost = 0;
  const reads: string[] = [];
  const store: ShareStore = {
    get: async (id) => {
      reads.push(id);
      return current;
    },
    listByUser: async () => [],
    create: async () => undefined,
    spendView: async (read) => {
      if (current?.viewsLeft !== read.viewsLeft) return false;
      if (lost < losses) {
        lost += 1;
        current = current.viewsLeft > 1 ? { ...current, viewsLeft: current.viewsLeft - 1 } : undefined;
        return false;
      }
      current = current.viewsLeft > 1 ? { ...current, viewsLeft: current.viewsLeft - 1 } : undefined;
      return true;
    },
    delete: async () => false,
  };
  return { store, reads };
};

/** Who holds which address now: each claim names the user whose newest session carried it. */
const holders = (claims: EmailClaim[] = []): AddressClaims => ({
  getEmailClaims: async (emails) => claims.filter((claim) => emails.includes(claim.email)),
});

const useCases = (store: ShareStore, claims = holders()) =>
  shareUseCases({ shares: store, claims, ids: sequentialIds() });

describe('revealing a share', () => {
  it('reads again after losing a race, and answers the views left after its own', async () => {
    const { store, reads } = racingStore(share(), 1);
    const revealed = await useCases(store).revealShare(session, 'shr_1', origin, now);
    expect(revealed).toEqual({
      ciphertext: 'c2VhbGVk',
      viewsLeft: 1,
      expiresAt: '2026-11-25T13:00:00.000Z',
      createdBy: { email: 'bob@example.com' },
    });
    expect(reads).toEqual(['shr_1', 'shr_1']);
  });

  it('answers 404 once the races it lost spent the share', async () => {
    const { store } = racingStore(share({ viewsLeft: 2 }), 2);
    await expect(useCases(store).revealShare(session, 'shr_1', origin, now)).rejects.toEqual(
      new NotFoundError(ErrorText.shareNotFound),
    );
  });

  it('gives up with a 503 rather than loop when the share’s views keep changing under it', async () => {
    const store: ShareStore = { ...racingStore(share(), 0).store, spendView: async () => false };
    await expect(useCases(store).revealShare(session, 'shr_1', origin, now)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });

  it.each([
    ['expired at this very instant', share({ expiresAt: now.toISOString() })],
    ['for other recipients', share({ recipients: ['bob@example.com'] })],
  ])('refuses a share %s with the one 404, spending nothing', async (_case, stored) => {
    const spent: ShareRecord[] = [];
    const store: ShareStore = {
      ...racingStore(stored, 0).store,
      spendView: async (read) => {
        spent.push(read);
        return true;
      },
    };
    await expect(useCases(store).revealShare(session, 'shr_1', origin, now)).rejects.toEqual(
      new NotFoundError(ErrorText.shareNotFound),
    );
    await expect(useCases(store).lookAtShare(session, 'shr_1', now)).rejects.toEqual(
      new NotFoundError(ErrorText.shareNotFound),
    );
    expect(spent).toEqual([]);
  });

  it('reveals to the user who holds a recipient address now, whatever e-mail their credential carries', async () => {
    const { store } = racingStore(share({ recipients: ['ada@example.com', 'ops@example.com'] }), 0);
    const spent: unknown[] = [];
    const claims = holders([{ email: 'ops@example.com', userId: session.userId }]);
    const recording: ShareStore = {
      ...store,
      spendView: async (read, event, held) => {
        spent.push(held);
        return store.spendView(read, event, held);
      },
    };
    const stale = { ...session, email: 'someone-else@example.com' };
    expect((await useCases(recording, claims).revealShare(stale, 'shr_1', origin, now)).viewsLeft).toBe(2);
    expect(spent).toEqual([{ email: 'ops@example.com', userId: session.userId }]);
  });

  it.each([
    ['has moved to another user', [{ email: 'ada@example.com', userId: 'u-9' }]],
    ['was claimed by no one', []],
    ['belongs to an offboarded holder', [{ email: 'ada@example.com', userId: 'u-1', offboardedAt: now.toISOString() }]],
  ])('refuses the e-mail of the caller’s credential when the address %s', async (_case, claims: EmailClaim[]) => {
    const { store } = racingStore(share({ recipients: ['ada@example.com'] }), 0);
    const caller = { ...session, userId: 'u-1', email: 'ada@example.com' };
    await expect(useCases(store, holders(claims)).revealShare(caller, 'shr_1', origin, now)).rejects.toEqual(
      new NotFoundError(ErrorText.shareNotFound),
    );
    await expect(useCases(store, holders(claims)).lookAtShare(caller, 'shr_1', now)).rejects.toEqual(
      new NotFoundError(ErrorText.shareNotFound),
    );
  });
});
