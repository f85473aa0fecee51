import { ErrorText } from '@contract/errors';
import { NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { ShareRecord } from '@lambdas/domain/records';
import { type ShareStore, shareUseCases } from '@lambdas/use-cases/shares';
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
  const reads: boolean[] = [];
  const store: ShareStore = {
    get: async (_id, consistent) => {
      reads.push(consistent);
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

const useCases = (store: ShareStore) => shareUseCases({ shares: store, ids: sequentialIds() });

describe('revealing a share', () => {
  it('reads again, strongly, after losing a race, and answers the views left after its own', async () => {
    const { store, reads } = racingStore(share(), 1);
    const revealed = await useCases(store).revealShare(session, 'shr_1', origin, now);
    expect(revealed).toEqual({
      ciphertext: 'c2VhbGVk',
      viewsLeft: 1,
      expiresAt: '2026-11-25T13:00:00.000Z',
      createdBy: { email: 'bob@example.com' },
    });
    expect(reads).toEqual([true, true]);
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

  it('reveals to a recipient whatever the case of the session’s e-mail', async () => {
    const { store } = racingStore(share({ recipients: ['ada@example.com'] }), 0);
    const shouting = { ...session, email: 'ADA@Example.com' };
    expect((await useCases(store).revealShare(shouting, 'shr_1', origin, now)).viewsLeft).toBe(2);
  });
});
