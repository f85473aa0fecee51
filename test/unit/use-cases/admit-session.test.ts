import type { EmailClaim, RecordedSession, UserProfile } from '@lambdas/domain/records';
import { admitSession, type SessionRecords } from '@lambdas/use-cases/admit-session';

const now = new Date('2026-11-25T12:00:00.000Z');
const session: RecordedSession = { userId: 'u-1', email: 'a@x.io', issuedAt: '2026-11-25T11:30:00.000Z' };

/** The profile and claim a session of `session` records, as the repository writes them. */
const recorded = (at: Date = now, from: RecordedSession = session) => ({
  profile: {
    userId: from.userId,
    email: from.email,
    lastSeenAt: at.toISOString(),
    sessionIssuedAt: from.issuedAt,
  } as UserProfile,
  claim: { email: from.email, userId: from.userId, issuedAt: from.issuedAt } as EmailClaim,
});

/** Records in memory: what was read, and every record asked for. */
const fakeRecords = (state: { profile?: UserProfile; claim?: EmailClaim }) => {
  const writes: { session: RecordedSession; previousEmail: string | undefined }[] = [];
  const records: SessionRecords = {
    read: async () => ({ profile: state.profile, claim: state.claim }),
    record: async (written, _lastSeenAt, previousEmail) => {
      writes.push({ session: written, previousEmail });
      return true;
    },
  };
  return { records, writes };
};

describe('admitSession', () => {
  it('admits a session whose profile and claim are current without writing', async () => {
    const { records, writes } = fakeRecords(recorded());
    expect(await admitSession(session, now, records)).toBe(true);
    expect(writes).toEqual([]);
  });

  it('records the first session of a user', async () => {
    const { records, writes } = fakeRecords({});
    expect(await admitSession(session, now, records)).toBe(true);
    expect(writes).toEqual([{ session, previousEmail: undefined }]);
  });

  it('records again a day after the last record, and not a minute before', async () => {
    const DAY_MS = 24 * 60 * 60_000;
    const { records, writes } = fakeRecords(recorded(new Date(now.getTime() - DAY_MS)));
    await admitSession(session, now, records);
    expect(writes).toHaveLength(1);
    const fresh = fakeRecords(recorded(new Date(now.getTime() - DAY_MS + 60_000)));
    await admitSession(session, now, fresh.records);
    expect(fresh.writes).toEqual([]);
  });

  it('records the claim of an address its fresh profile names but nobody claimed', async () => {
    const { records, writes } = fakeRecords({ profile: recorded().profile });
    await admitSession(session, now, records);
    expect(writes).toEqual([{ session, previousEmail: session.email }]);
  });

  it('refuses a session issued at or before its user’s offboarding, and records nothing', async () => {
    for (const offboardedAt of [session.issuedAt, '2026-11-25T11:45:00.000Z']) {
      const { records, writes } = fakeRecords({ profile: { ...recorded().profile, offboardedAt } });
      expect(await admitSession(session, now, records)).toBe(false);
      expect(writes).toEqual([]);
    }
  });

  it('refuses a session of a user offboarded before they ever signed in', async () => {
    const { records } = fakeRecords({ profile: { userId: 'u-1', offboardedAt: '2026-11-25T11:45:00.000Z' } });
    expect(await admitSession(session, now, records)).toBe(false);
  });

  it('admits and records a session issued after the offboarding', async () => {
    const { records, writes } = fakeRecords({
      profile: { ...recorded().profile, offboardedAt: '2026-11-25T11:00:00.000Z' },
      claim: { ...recorded().claim, offboardedAt: '2026-11-25T11:00:00.000Z' },
    });
    expect(await admitSession(session, now, records)).toBe(true);
    expect(writes).toHaveLength(1);
  });

  it('takes its address back when another user’s older session holds the claim, though the profile is fresh', async () => {
    const { records, writes } = fakeRecords({
      profile: recorded().profile,
      claim: { email: session.email, userId: 'u-2', issuedAt: '2026-11-25T10:00:00.000Z' },
    });
    await admitSession(session, now, records);
    expect(writes).toEqual([{ session, previousEmail: session.email }]);
  });

  it('leaves the claim to another user’s newer session', async () => {
    const { records, writes } = fakeRecords({
      claim: { email: session.email, userId: 'u-2', issuedAt: '2026-11-25T11:59:00.000Z' },
    });
    expect(await admitSession(session, now, records)).toBe(true);
    expect(writes).toEqual([]);
  });

  it('leaves the claim to another user’s session issued at the same instant', async () => {
    const { records, writes } = fakeRecords({
      claim: { email: session.email, userId: 'u-2', issuedAt: session.issuedAt },
    });
    await admitSession(session, now, records);
    expect(writes).toEqual([]);
  });

  it.each([
    [
      'whose holder was offboarded, even by a newer session',
      { userId: 'u-2', issuedAt: '2026-11-25T11:59:00.000Z', offboardedAt: '2026-11-25T12:00:00.000Z' },
    ],
    ['claimed before claims carried their session’s instant', { userId: 'u-2' }],
  ])('takes over an address %s', async (_case, holder) => {
    const { records, writes } = fakeRecords({ claim: { email: session.email, ...holder } });
    await admitSession(session, now, records);
    expect(writes).toEqual([{ session, previousEmail: undefined }]);
  });

  it('lets an older session of the same user leave the claim its newer session took', async () => {
    const { records, writes } = fakeRecords({
      claim: { email: session.email, userId: session.userId, issuedAt: '2026-11-25T11:50:00.000Z' },
    });
    await admitSession(session, now, records);
    expect(writes).toEqual([]);
  });

  it('lets a replayed older session of the same user rewrite nothing', async () => {
    const newer = { ...session, email: 'b@x.io', issuedAt: '2026-11-25T11:50:00.000Z' };
    const { records, writes } = fakeRecords({ profile: recorded(now, newer).profile });
    expect(await admitSession(session, now, records)).toBe(true);
    expect(writes).toEqual([]);
  });

  it('records a new address and names the previous one to give up', async () => {
    const older = { ...session, email: 'old@x.io', issuedAt: '2026-11-25T09:00:00.000Z' };
    const { records, writes } = fakeRecords(recorded(now, older));
    await admitSession(session, now, records);
    expect(writes).toEqual([{ session, previousEmail: 'old@x.io' }]);
  });
});
