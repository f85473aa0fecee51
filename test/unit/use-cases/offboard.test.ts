import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { NotFoundError } from '@lambdas/domain/errors';
import type { EmailClaim, MemberRecord, TokenRecord, UserProfile } from '@lambdas/domain/records';
import { type OffboardingPorts, offboardUser } from '@lambdas/use-cases/offboard';
import { now } from './fakes';

const member = (projectId: string, role: MemberRecord['role']): MemberRecord => ({
  projectId,
  projectName: projectId,
  projectCreatedAt: '2026-11-01T00:00:00.000Z',
  userId: 'u-2',
  role,
  addedAt: '2026-11-01T00:00:00.000Z',
});

/** A user, their memberships and tokens in memory; each write does what the repository's does. */
const fakeWorld = () => {
  const profiles = new Map<string, UserProfile>([
    ['u-2', { userId: 'u-2', email: 'bob@example.com', sessionIssuedAt: '2026-11-25T10:00:00.000Z' }],
  ]);
  const claims = new Map<string, EmailClaim>([['bob@example.com', { email: 'bob@example.com', userId: 'u-2' }]]);
  const members = [member('prj_own', 'owner'), member('prj_admin', 'admin'), member('prj_member', 'member')];
  // `t-slot` holds a slot but is not listed yet; `t-expired` is listed, its slot freed.
  const slots = new Set(['t-live', 't-slot']);
  const tokens = new Set(['t-live', 't-slot', 't-expired']);
  const listed = ['t-live', 't-expired'];
  const events: AuditEvent[] = [];
  const ports: OffboardingPorts = {
    users: {
      getEmailClaim: async (email) => claims.get(email),
      getUserProfile: async (userId) => profiles.get(userId),
      markProfileOffboarded: async (userId, at) => {
        profiles.set(userId, { ...(profiles.get(userId) ?? { userId }), offboardedAt: at.toISOString() });
      },
      releaseEmailClaim: async (email, userId, at) => {
        const claim = claims.get(email);
        if (claim?.userId === userId) claims.set(email, { ...claim, offboardedAt: at.toISOString() });
      },
    },
    projects: {
      listMembershipsByUser: async (userId) => members.filter((m) => m.userId === userId),
      deleteMembershipUnlessOwner: async (projectId, _userId, event) => {
        const index = members.findIndex((m) => m.projectId === projectId && m.role !== 'owner');
        if (index === -1) return false;
        members.splice(index, 1);
        events.push(event);
        return true;
      },
    },
    tokens: {
      markOffboarded: async () => [...slots],
      // Offboarding reads only the ids of the listed tokens.
      listByUser: async () =>
        listed.filter((tokenId) => tokens.has(tokenId)).map((tokenId) => ({ tokenId, userId: 'u-2' }) as TokenRecord),
      revoke: async (_userId, tokenId, event) => {
        if (!tokens.delete(tokenId)) throw new NotFoundError(ErrorText.tokenNotFound);
        slots.delete(tokenId);
        events.push(event);
      },
    },
    audit: {
      recordAuditEvent: async (event) => {
        events.push(event);
      },
    },
  };
  return { ports, profiles, claims, members, tokens, events };
};

describe('offboardUser', () => {
  it('marks the user, frees their address, removes their memberships but ownerships and revokes every token', async () => {
    const world = fakeWorld();
    const report = await offboardUser(world.ports, ' Bob@Example.com ', now);
    expect(report).toEqual({
      userId: 'u-2',
      email: 'bob@example.com',
      alreadyOffboardedAt: undefined,
      revokedTokens: ['t-expired', 't-live', 't-slot'],
      removedFrom: ['prj_admin', 'prj_member'],
      ownedProjects: ['prj_own'],
    });
    expect(world.profiles.get('u-2')?.offboardedAt).toBe(now.toISOString());
    expect(world.claims.get('bob@example.com')?.offboardedAt).toBe(now.toISOString());
    expect(world.members.map((m) => m.projectId)).toEqual(['prj_own']);
    expect(world.tokens.size).toBe(0);
    expect(world.events.map((event) => event.type).sort()).toEqual([
      'member.removed',
      'member.removed',
      'token.revoked',
      'token.revoked',
      'token.revoked',
      'user.offboarded',
    ]);
    expect(world.events.every((event) => event.actor.via === 'system')).toBe(true);
  });

  it('offboards by user id too', async () => {
    const world = fakeWorld();
    expect((await offboardUser(world.ports, 'u-2', now)).userId).toBe('u-2');
  });

  it('answers not found for an address nobody holds, changing nothing', async () => {
    const world = fakeWorld();
    await expect(offboardUser(world.ports, 'nobody@example.com', now)).rejects.toThrow(
      new NotFoundError('No user holds the address nobody@example.com'),
    );
    expect(world.events).toEqual([]);
  });

  it('reports an earlier offboarding on a second run, which records nothing more', async () => {
    const world = fakeWorld();
    await offboardUser(world.ports, 'u-2', now);
    const recorded = world.events.length;
    const later = new Date(now.getTime() + 60_000);
    const report = await offboardUser(world.ports, 'bob@example.com', later);
    expect(report).toMatchObject({ alreadyOffboardedAt: now.toISOString(), revokedTokens: [], removedFrom: [] });
    expect(world.events).toHaveLength(recorded);
  });
});
