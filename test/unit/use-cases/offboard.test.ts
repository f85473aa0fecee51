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

/**
 * A user, their memberships and tokens in memory; each write does what the repository's does. A
 * membership in `recent` was added just before the run: only a strongly consistent read shows it.
 */
const fakeWorld = (
  state: { profile?: UserProfile | undefined; members?: MemberRecord[]; recent?: MemberRecord[] } = {},
) => {
  const bob: UserProfile = { userId: 'u-2', email: 'bob@example.com', sessionIssuedAt: '2026-11-25T10:00:00.000Z' };
  const profile = 'profile' in state ? state.profile : bob;
  const profiles = new Map<string, UserProfile>(profile ? [['u-2', profile]] : []);
  const claims = new Map<string, EmailClaim>([['bob@example.com', { email: 'bob@example.com', userId: 'u-2' }]]);
  const recent = state.recent ?? [];
  const members = [
    ...(state.members ?? [member('prj_own', 'owner'), member('prj_member', 'member'), member('prj_admin', 'admin')]),
    ...recent,
  ];
  // `t-slot` holds a slot but is not listed yet; `t-expired` is listed, its slot freed.
  const slots = new Set(['t-live', 't-slot']);
  const tokens = new Set(['t-live', 't-slot', 't-expired']);
  const listed = ['t-live', 't-expired'];
  const events: AuditEvent[] = [];
  const trails: { type: string; userId: string; projectId: string | null }[] = [];
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
      listMembershipsByUser: async (userId, consistent) =>
        members.filter((m) => m.userId === userId && (consistent || !recent.includes(m))),
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
      recordAuditEvent: async (event, trail) => {
        events.push(event);
        trails.push({ type: event.type, ...trail });
      },
    },
  };
  /** A token the user creates: listed, as its slot is not read once the user is marked. */
  const createToken = (tokenId: string) => {
    tokens.add(tokenId);
    listed.push(tokenId);
  };
  return { ports, profiles, claims, members, slots, tokens, events, trails, createToken };
};

type World = ReturnType<typeof fakeWorld>;

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

  it('records who was removed and which token revoked, and user.offboarded in the user’s own trail only', async () => {
    const world = fakeWorld();
    await offboardUser(world.ports, 'u-2', now);
    const targets = world.events.map((event) => ({ type: event.type, ...event.target }));
    expect(targets).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'member.removed',
          projectId: 'prj_member',
          userId: 'u-2',
          email: 'bob@example.com',
        }),
        expect.objectContaining({
          type: 'member.removed',
          projectId: 'prj_admin',
          userId: 'u-2',
          email: 'bob@example.com',
        }),
        expect.objectContaining({ type: 'token.revoked', tokenId: 't-live' }),
        expect.objectContaining({ type: 'user.offboarded', userId: 'u-2', email: 'bob@example.com' }),
      ]),
    );
    expect(world.trails).toEqual([{ type: 'user.offboarded', userId: 'u-2', projectId: null }]);
  });

  it('reports the projects it removed the user from and those they own in order', async () => {
    const world = fakeWorld({
      members: [
        member('prj_z_member', 'member'),
        member('prj_z_own', 'owner'),
        member('prj_a_member', 'member'),
        member('prj_a_own', 'owner'),
      ],
    });
    expect(await offboardUser(world.ports, 'u-2', now)).toMatchObject({
      removedFrom: ['prj_a_member', 'prj_z_member'],
      ownedProjects: ['prj_a_own', 'prj_z_own'],
    });
  });

  it('removes a membership added just before the run, which only a strongly consistent read shows', async () => {
    const world = fakeWorld({ recent: [member('prj_new', 'member')] });
    expect((await offboardUser(world.ports, 'u-2', now)).removedFrom).toContain('prj_new');
  });

  it('offboards a user who never signed in: no address to free, the mark set, user.offboarded recorded', async () => {
    const world = fakeWorld({ profile: undefined, members: [member('prj_member', 'member')] });
    expect(await offboardUser(world.ports, 'u-2', now)).toEqual({
      userId: 'u-2',
      email: undefined,
      alreadyOffboardedAt: undefined,
      revokedTokens: ['t-expired', 't-live', 't-slot'],
      removedFrom: ['prj_member'],
      ownedProjects: [],
    });
    expect(world.profiles.get('u-2')?.offboardedAt).toBe(now.toISOString());
    expect(world.claims.get('bob@example.com')?.offboardedAt).toBeUndefined();
    expect(world.events.map((event) => event.target.email ?? null)).toEqual(world.events.map(() => null));
  });

  it('records user.offboarded even when there was nothing to remove or revoke', async () => {
    const world = fakeWorld({ members: [] });
    world.tokens.clear();
    world.slots.clear();
    await offboardUser(world.ports, 'u-2', now);
    expect(world.events.map((event) => event.type)).toEqual(['user.offboarded']);
  });

  it('takes a user id with spaces around it as the id', async () => {
    const world = fakeWorld();
    expect(await offboardUser(world.ports, ' u-2 ', now)).toMatchObject({ userId: 'u-2', email: 'bob@example.com' });
  });

  it('skips a token revoked by someone else meanwhile, and stops on any other failure', async () => {
    const world = fakeWorld();
    const revoke = world.ports.tokens.revoke;
    world.ports.tokens.revoke = async (userId, tokenId, event) => {
      if (tokenId === 't-live') world.tokens.delete('t-live');
      return revoke(userId, tokenId, event);
    };
    expect((await offboardUser(world.ports, 'u-2', now)).revokedTokens).toEqual(['t-expired', 't-slot']);
    const failing = fakeWorld();
    failing.ports.tokens.revoke = async () => {
      throw new Error('DynamoDB is unavailable');
    };
    await expect(offboardUser(failing.ports, 'u-2', now)).rejects.toThrow('DynamoDB is unavailable');
  });

  it('offboards by user id too', async () => {
    const world = fakeWorld();
    expect((await offboardUser(world.ports, 'u-2', now)).userId).toBe('u-2');
  });

  it('answers not found for an address nobody holds, changing nothing', async () => {
    const world = fakeWorld();
    await expect(offboardUser(world.ports, ' nobody@example.com ', now)).rejects.toThrow(
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

  it.each([
    ['a token created since', (world: World) => world.createToken('t-new')],
    ['a membership added since', (world: World) => world.members.push(member('prj_new', 'member'))],
  ])('offboards again, recording user.offboarded again, when a second run finds %s', async (_case, arrange) => {
    const world = fakeWorld();
    await offboardUser(world.ports, 'u-2', now);
    arrange(world);
    await offboardUser(world.ports, 'u-2', new Date(now.getTime() + 60_000));
    expect(world.events.filter((event) => event.type === 'user.offboarded')).toHaveLength(2);
  });

  it.each([
    ['signed in again since', '2026-11-25T12:00:01.000Z', undefined],
    ['with a session issued at the mark itself', now.toISOString(), now.toISOString()],
    ['who never signed in', undefined, now.toISOString()],
  ])('judges a user offboarded before and %s', async (_case, sessionIssuedAt, alreadyOffboardedAt) => {
    const profile: UserProfile = {
      userId: 'u-2',
      email: 'bob@example.com',
      offboardedAt: now.toISOString(),
      ...(sessionIssuedAt && { sessionIssuedAt }),
    };
    const world = fakeWorld({ profile, members: [] });
    world.tokens.clear();
    world.slots.clear();
    const report = await offboardUser(world.ports, 'u-2', new Date(now.getTime() + 60_000));
    expect(report.alreadyOffboardedAt).toBe(alreadyOffboardedAt);
    expect(world.events.length).toBe(alreadyOffboardedAt === undefined ? 1 : 0);
  });
});
