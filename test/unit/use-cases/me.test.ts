import { ErrorText } from '@contract/errors';
import type { MemberRecord } from '@lambdas/domain/records';
import { meUseCases } from '@lambdas/use-cases/me';
import { origin, session } from './fakes';

/** A membership of user `u-1` in `projectId`. */
const membership = (projectId: string, extra: Partial<MemberRecord> = {}): MemberRecord => ({
  projectId,
  projectName: `name of ${projectId}`,
  projectCreatedAt: '2026-11-01T00:00:00.000Z',
  userId: 'u-1',
  role: 'member',
  addedAt: '2026-11-20T00:00:00.000Z',
  ...extra,
});

/** The use case over these memberships of the caller, counting the reads. */
const describing = (memberships: MemberRecord[]) => {
  const reads: boolean[] = [];
  const { describeSession } = meUseCases({
    memberships: {
      listMembershipsByUser: async (userId, consistent) => {
        reads.push(consistent);
        return memberships.filter((entry) => entry.userId === userId);
      },
    },
  });
  return { describeSession, reads };
};

const zed = { userId: 'u-9', email: 'zed@example.com' };

describe('describeSession', () => {
  it('answers the session’s user, e-mail and the address a token created now would be bound to', async () => {
    const { describeSession } = describing([]);
    await expect(describeSession(session, origin)).resolves.toEqual({
      userId: 'u-1',
      email: 'ada@example.com',
      sourceIp: '203.0.113.7',
      addedTo: [],
    });
  });

  it('gives an IPv4-mapped address in its IPv4 form', async () => {
    const { describeSession } = describing([]);
    const described = await describeSession(session, { ...origin, sourceIp: '::ffff:203.0.113.7' });
    expect(described.sourceIp).toBe('203.0.113.7');
  });

  it('lists the projects others added the caller to and the caller has not opened, oldest addition first', async () => {
    const { describeSession, reads } = describing([
      membership('prj_own', { role: 'owner' }),
      membership('prj_old'),
      membership('prj_seen', { addedBy: zed, seenAt: '2026-11-22T00:00:00.000Z' }),
      membership('prj_late', { addedBy: zed, addedAt: '2026-11-24T00:00:00.000Z', role: 'admin' }),
      membership('prj_early', { addedBy: { userId: 'u-8', email: null }, addedAt: '2026-11-21T00:00:00.000Z' }),
    ]);
    const { addedTo } = await describeSession(session, origin);
    expect(addedTo).toEqual([
      {
        projectId: 'prj_early',
        name: 'name of prj_early',
        role: 'member',
        addedBy: { userId: 'u-8', email: null },
        addedAt: '2026-11-21T00:00:00.000Z',
      },
      {
        projectId: 'prj_late',
        name: 'name of prj_late',
        role: 'admin',
        addedBy: zed,
        addedAt: '2026-11-24T00:00:00.000Z',
      },
    ]);
    // A list: eventually consistent is enough.
    expect(reads).toEqual([false]);
  });

  it('fails closed (401) without an e-mail or an address, reading nothing', async () => {
    const { describeSession, reads } = describing([]);
    for (const [principal, from] of [
      [{ ...session, email: undefined }, origin],
      [session, { ...origin, sourceIp: null }],
    ] as const) {
      await expect(describeSession(principal, from)).rejects.toMatchObject({
        status: 401,
        message: ErrorText.unauthorized,
      });
    }
    expect(reads).toEqual([]);
  });
});
