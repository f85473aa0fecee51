import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { MAX_SHARE_VIEWS } from '@contract/limits';
import { NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { EmailClaim, ShareRecord } from '@lambdas/domain/records';
import { type AddressClaims, type ShareStore, shareUseCases } from '@lambdas/use-cases/shares';
import { eventLike, now, origin, sequentialIds, session } from './fakes';

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

const HOUR_MS = 60 * 60 * 1000;

/** Shares in memory, kept and withdrawn as the repository does, with the events written beside them. */
const fakeShares = (stored: ShareRecord[] = []) => {
  const byId = new Map(stored.map((entry) => [entry.shareId, entry]));
  const events: AuditEvent[] = [];
  const store: ShareStore = {
    get: async (id) => byId.get(id),
    listByUser: async (userId) =>
      [...byId.values()]
        .filter((entry) => entry.userId === userId)
        .map(({ ciphertext: _sealed, ...summary }) => summary)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    create: async (created, _now, event) => {
      byId.set(created.shareId, created);
      events.push(event);
    },
    spendView: async () => false,
    delete: async (userId, id, at, event) => {
      const found = byId.get(id);
      if (found?.userId !== userId || found.expiresAt <= at.toISOString()) return false;
      byId.delete(id);
      events.push(event);
      return true;
    },
  };
  return { ...useCases(store), byId, events };
};

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

describe('creating a share', () => {
  it('keeps the caller’s ciphertext for a day and one view by default, for anyone signed in, and records share.created', async () => {
    const { createShare, byId, events } = fakeShares();
    const expiresAt = new Date(now.getTime() + 24 * HOUR_MS).toISOString();
    expect(await createShare(session, { ciphertext: 'c2VhbGVk' }, origin, now)).toEqual({
      id: 'shr_1',
      expiresAt,
      maxViews: 1,
      viewsLeft: 1,
      recipients: null,
    });
    expect(byId.get('shr_1')).toEqual({
      shareId: 'shr_1',
      userId: 'u-1',
      creatorEmail: 'ada@example.com',
      ciphertext: 'c2VhbGVk',
      createdAt: now.toISOString(),
      expiresAt,
      maxViews: 1,
      viewsLeft: 1,
    });
    expect(events).toEqual([
      eventLike('share.created', {
        target: expect.objectContaining({ shareId: 'shr_1' }),
        details: expect.objectContaining({ expiresAt, maxViews: 1, viewsLeft: 1 }),
      }),
    ]);
  });

  it('keeps it for the hours and views asked, for the recipients named', async () => {
    const { createShare, byId } = fakeShares();
    const input = { ciphertext: 'c2VhbGVk', expiresInHours: 2, maxViews: 5, recipients: ['bob@example.com'] };
    const expiresAt = new Date(now.getTime() + 2 * HOUR_MS).toISOString();
    expect(await createShare(session, input, origin, now)).toEqual({
      id: 'shr_1',
      expiresAt,
      maxViews: 5,
      viewsLeft: 5,
      recipients: ['bob@example.com'],
    });
    expect(byId.get('shr_1')).toMatchObject({ expiresAt, maxViews: 5, viewsLeft: 5, recipients: ['bob@example.com'] });
  });

  it('names no creator address when the caller’s credential carries none', async () => {
    const { createShare, byId } = fakeShares();
    const { email: _none, ...anonymous } = session;
    await createShare(anonymous, { ciphertext: 'c2VhbGVk' }, origin, now);
    expect(byId.get('shr_1')?.creatorEmail).toBeNull();
  });
});

describe('looking at and revealing a share', () => {
  it('shows who shared it, its views left and expiry, spending nothing', async () => {
    const { lookAtShare, byId } = fakeShares([share()]);
    expect(await lookAtShare(session, 'shr_1', now)).toEqual({
      viewsLeft: 3,
      expiresAt: '2026-11-25T13:00:00.000Z',
      createdBy: { email: 'bob@example.com' },
    });
    expect(byId.get('shr_1')?.viewsLeft).toBe(3);
  });

  it('records share.revealed in the creator’s trail with the views left', async () => {
    const events: AuditEvent[] = [];
    const { store } = racingStore(share(), 0);
    const recording: ShareStore = {
      ...store,
      spendView: async (read, event, held) => {
        events.push(event);
        return store.spendView(read, event, held);
      },
    };
    await useCases(recording).revealShare(session, 'shr_1', origin, now);
    expect(events).toEqual([
      eventLike('share.revealed', {
        target: expect.objectContaining({ shareId: 'shr_1', userId: 'u-2', email: 'bob@example.com' }),
        details: expect.objectContaining({ viewsLeft: 2 }),
      }),
    ]);
  });

  it(`answers 404, not 503, once the reveals it lost to spent all ${MAX_SHARE_VIEWS} views`, async () => {
    const { store, reads } = racingStore(
      share({ maxViews: MAX_SHARE_VIEWS, viewsLeft: MAX_SHARE_VIEWS }),
      MAX_SHARE_VIEWS,
    );
    await expect(useCases(store).revealShare(session, 'shr_1', origin, now)).rejects.toEqual(
      new NotFoundError(ErrorText.shareNotFound),
    );
    expect(reads).toHaveLength(MAX_SHARE_VIEWS + 1);
  });
});

describe('listing and withdrawing shares', () => {
  it('lists the caller’s shares that have not expired, newest first, without their ciphertexts', async () => {
    const { listShares } = fakeShares([
      share({
        shareId: 'shr_old',
        userId: 'u-1',
        createdAt: '2026-11-25T10:00:00.000Z',
        recipients: ['bob@example.com'],
      }),
      share({ shareId: 'shr_new', userId: 'u-1', createdAt: '2026-11-25T11:30:00.000Z' }),
      share({ shareId: 'shr_gone', userId: 'u-1', expiresAt: now.toISOString() }),
      share({ shareId: 'shr_bob', userId: 'u-2' }),
    ]);
    expect(await listShares(session, now)).toEqual([
      {
        id: 'shr_new',
        expiresAt: '2026-11-25T13:00:00.000Z',
        maxViews: 3,
        viewsLeft: 3,
        recipients: null,
        createdAt: '2026-11-25T11:30:00.000Z',
      },
      {
        id: 'shr_old',
        expiresAt: '2026-11-25T13:00:00.000Z',
        maxViews: 3,
        viewsLeft: 3,
        recipients: ['bob@example.com'],
        createdAt: '2026-11-25T10:00:00.000Z',
      },
    ]);
  });

  it('withdraws one of the caller’s shares and records share.deleted', async () => {
    const { deleteShare, byId, events } = fakeShares([share({ userId: 'u-1' })]);
    await deleteShare(session, 'shr_1', origin, now);
    expect(byId.has('shr_1')).toBe(false);
    expect(events).toEqual([eventLike('share.deleted', { target: expect.objectContaining({ shareId: 'shr_1' }) })]);
  });

  it('answers 404 for another person’s share and for none, withdrawing nothing', async () => {
    const { deleteShare, byId, events } = fakeShares([share()]);
    for (const id of ['shr_1', 'shr_9']) {
      await expect(deleteShare(session, id, origin, now)).rejects.toEqual(new NotFoundError(ErrorText.shareNotFound));
    }
    expect([byId.has('shr_1'), events]).toEqual([true, []]);
  });
});
