import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type { EmailClaim, EnvironmentRecord, MemberRecord, ProjectRecord, UserProfile } from '@lambdas/domain/records';
import { type ProjectStore, projectUseCases, type UserDirectory } from '@lambdas/use-cases/projects';
import { eventLike, now, origin, sequentialIds, session } from './fakes';

const project: ProjectRecord = { projectId: 'prj_a', name: 'Apollo', createdAt: '2026-11-01T00:00:00.000Z' };

const member = (userId: string, role: MemberRecord['role'], of: ProjectRecord = project): MemberRecord => ({
  projectId: of.projectId,
  projectName: of.name,
  projectCreatedAt: of.createdAt,
  userId,
  role,
  addedAt: of.createdAt,
});

const key = (projectId: string, userId: string) => `${projectId}/${userId}`;

/**
 * Projects and users in memory; the writes check what the repository's conditions check. `meanwhile` is
 * another request's change, landing before each access write.
 */
const fakeProjects = (
  state: {
    members?: MemberRecord[];
    claims?: EmailClaim[];
    profiles?: UserProfile[];
    environments?: EnvironmentRecord[];
    meanwhile?: (members: Map<string, MemberRecord>) => void;
  } = {},
) => {
  const environments = state.environments ?? [];
  const members = new Map((state.members ?? []).map((m) => [key(m.projectId, m.userId), m]));
  const events: AuditEvent[] = [];
  const manages = (projectId: string, userId: string) =>
    ['owner', 'admin'].includes(members.get(key(projectId, userId))?.role ?? '');
  const store: ProjectStore = {
    createProjectWithOwner: async (created, ownerUserId, made, event) => {
      members.set(key(created.projectId, ownerUserId), { ...member(ownerUserId, 'owner', created) });
      environments.push(...made);
      events.push(event);
    },
    listMembershipsByUser: async (userId) => [...members.values()].filter((m) => m.userId === userId),
    getMember: async (projectId, userId) => members.get(key(projectId, userId)),
    listMembers: async (projectId) => [...members.values()].filter((m) => m.projectId === projectId),
    listEnvironments: async (projectId) => environments.filter((environment) => environment.projectId === projectId),
    setMemberAccess: async (managerUserId, changed, _email, event) => {
      state.meanwhile?.(members);
      if (!manages(changed.projectId, managerUserId)) return 'refused';
      const stored = members.get(key(changed.projectId, changed.userId));
      if (stored?.role !== 'member' || stored.accessRevision !== changed.accessRevision) return 'changed';
      members.set(key(changed.projectId, changed.userId), {
        ...changed,
        accessRevision: (changed.accessRevision ?? 0) + 1,
      });
      events.push(event);
      return 'written';
    },
    putMemberIfAbsent: async (manager, added, _email, event) => {
      if (!manages(manager.projectId, manager.userId)) throw new NotFoundError(ErrorText.projectNotFound);
      if (members.has(key(added.projectId, added.userId))) throw new ConflictError(ErrorText.alreadyMember);
      members.set(key(added.projectId, added.userId), added);
      events.push(event);
    },
    markMembershipSeen: async (projectId, userId, seenAt) => {
      const stored = members.get(key(projectId, userId));
      if (stored?.addedBy === undefined || stored.seenAt !== undefined) return false;
      members.set(key(projectId, userId), { ...stored, seenAt });
      return true;
    },
    deleteMembershipUnlessOwner: async (projectId, userId, event) => {
      const stored = members.get(key(projectId, userId));
      if (stored === undefined || stored.role === 'owner') return false;
      members.delete(key(projectId, userId));
      events.push(event);
      return true;
    },
    deleteMemberIfAllowed: async (projectId, callerUserId, { userId }, event) => {
      const target = members.get(key(projectId, userId));
      const allowed =
        callerUserId === userId ? target?.role === 'admin' : manages(projectId, callerUserId) && target !== undefined;
      if (!allowed || target?.role === 'owner') return false;
      members.delete(key(projectId, userId));
      events.push(event);
      return true;
    },
  };
  const claims = new Map((state.claims ?? []).map((claim) => [claim.email, claim]));
  const users: UserDirectory = {
    getEmailClaim: async (email) => claims.get(email),
    getUserProfiles: async (userIds) => (state.profiles ?? []).filter((profile) => userIds.includes(profile.userId)),
  };
  return { ...projectUseCases({ projects: store, users, ids: sequentialIds() }), members, environments, events };
};

const bob: EmailClaim = { email: 'bob@example.com', userId: 'u-2' };
const caller = (userId: string): Principal => ({ ...session, userId });

describe('createProject', () => {
  it('creates the project with the caller as its owner, and records project.created', async () => {
    const { createProject, members, events } = fakeProjects();
    const created = await createProject(session, 'Apollo', origin, now);
    expect(created).toEqual({ projectId: 'prj_1', name: 'Apollo', createdAt: now.toISOString() });
    expect(members.get(key('prj_1', 'u-1'))?.role).toBe('owner');
    expect(events).toEqual([
      eventLike('project.created', {
        target: expect.objectContaining({ projectId: 'prj_1' }),
        details: expect.objectContaining({ name: 'Apollo' }),
      }),
    ]);
  });

  it('starts the project with empty development, staging and production environments, each a life of its own', async () => {
    const { createProject, environments } = fakeProjects();
    await createProject(session, 'Apollo', origin, now);
    const made = { projectId: 'prj_1', createdAt: now.toISOString(), secretCount: 0, life: expect.any(String) };
    expect(environments).toEqual([
      { ...made, name: 'development' },
      { ...made, name: 'staging' },
      { ...made, name: 'production' },
    ]);
    expect(new Set(environments.map((environment) => environment.life)).size).toBe(3);
  });
});

const newer: ProjectRecord = { projectId: 'prj_b', name: 'Borealis', createdAt: '2026-11-20T00:00:00.000Z' };
const older: ProjectRecord = { projectId: 'prj_c', name: 'Cassini', createdAt: '2026-10-01T00:00:00.000Z' };
const zed = { userId: 'u-9', email: 'zed@example.com' };
/** A membership someone else added, at `addedAt`. */
const added = (of: ProjectRecord, addedAt: string, extra: Partial<MemberRecord> = {}): MemberRecord => ({
  ...member('u-1', 'member', of),
  addedAt,
  addedBy: zed,
  ...extra,
});

describe('listProjects', () => {
  it('lists the caller’s projects with their role, oldest first', async () => {
    const { listProjects } = fakeProjects({ members: [member('u-1', 'member', newer), member('u-1', 'owner')] });
    expect(await listProjects(session)).toEqual([
      { projectId: 'prj_a', name: 'Apollo', createdAt: project.createdAt, role: 'owner', addedBy: null, addedAt: null },
      {
        projectId: 'prj_b',
        name: 'Borealis',
        createdAt: newer.createdAt,
        role: 'member',
        addedBy: null,
        addedAt: null,
      },
    ]);
  });

  it('shows who added the caller and when, until the caller opened the project', async () => {
    const { listProjects } = fakeProjects({
      members: [
        member('u-1', 'owner'),
        added(newer, '2026-11-21T00:00:00.000Z'),
        added(older, '2026-11-22T00:00:00.000Z', { seenAt: '2026-11-23T00:00:00.000Z' }),
      ],
    });
    expect(
      (await listProjects(session)).map(({ projectId, addedBy, addedAt }) => [projectId, addedBy, addedAt]),
    ).toEqual([
      ['prj_c', null, null],
      ['prj_a', null, null],
      ['prj_b', zed, '2026-11-21T00:00:00.000Z'],
    ]);
  });

  it('lists projects created at the same instant by id', async () => {
    const twin = { ...project, projectId: 'prj_0', name: 'Zephyr' };
    const { listProjects } = fakeProjects({ members: [member('u-1', 'owner'), member('u-1', 'member', twin)] });
    expect((await listProjects(session)).map((listed) => listed.projectId)).toEqual(['prj_0', 'prj_a']);
  });
});

describe('listMembers', () => {
  it('lists the members under their profile’s address, the owner first', async () => {
    const { listMembers } = fakeProjects({
      members: [member('u-2', 'member'), member('u-3', 'admin'), member('u-1', 'owner')],
      profiles: [
        { userId: 'u-1', email: 'zed@example.com' },
        { userId: 'u-2', email: 'bob@example.com' },
      ],
    });
    expect(await listMembers(session, 'prj_a')).toEqual([
      { userId: 'u-1', email: 'zed@example.com', role: 'owner', access: {} },
      { userId: 'u-3', email: '', role: 'admin', access: {} },
      { userId: 'u-2', email: 'bob@example.com', role: 'member', access: {} },
    ]);
  });

  it('answers 404 to a caller who is not a member', async () => {
    const { listMembers } = fakeProjects({ members: [member('u-2', 'owner')] });
    await expect(listMembers(session, 'prj_a')).rejects.toMatchObject({
      status: 404,
      message: ErrorText.projectNotFound,
    });
  });
});

describe('addMember', () => {
  it('adds the user who holds the address with the role asked, and records member.added', async () => {
    const { addMember, members, events } = fakeProjects({ members: [member('u-1', 'owner')], claims: [bob] });
    await addMember(session, 'prj_a', { email: bob.email, role: 'admin' }, origin, now);
    expect(members.get(key('prj_a', 'u-2'))).toEqual({
      ...member('u-2', 'admin'),
      addedAt: now.toISOString(),
      addedBy: { userId: 'u-1', email: 'ada@example.com' },
    });
    expect(events).toEqual([
      eventLike('member.added', {
        target: expect.objectContaining({ projectId: 'prj_a', userId: 'u-2', email: bob.email }),
        details: expect.objectContaining({ role: 'admin' }),
      }),
    ]);
  });

  it('records the adder of a token without a recorded e-mail by user id alone', async () => {
    const { addMember, members } = fakeProjects({ members: [member('u-1', 'owner')], claims: [bob] });
    const token: Principal = { ...session, kind: 'token', tokenId: 'tok1', email: undefined };
    await addMember(token, 'prj_a', { email: bob.email, role: 'member' }, origin, now);
    expect(members.get(key('prj_a', 'u-2'))?.addedBy).toEqual({ userId: 'u-1', email: null });
  });

  it('answers 404 for an address nobody holds, or whose holder was offboarded', async () => {
    const offboarded = { ...bob, offboardedAt: '2026-11-24T00:00:00.000Z' };
    for (const claims of [[], [offboarded]]) {
      const { addMember, events } = fakeProjects({ members: [member('u-1', 'owner')], claims });
      await expect(
        addMember(session, 'prj_a', { email: bob.email, role: 'member' }, origin, now),
      ).rejects.toMatchObject({ status: 404, message: ErrorText.userNotFound });
      expect(events).toEqual([]);
    }
  });

  it('answers 404 to a caller outside the project and 403 to a plain member', async () => {
    const { addMember } = fakeProjects({ members: [member('u-1', 'owner'), member('u-3', 'member')], claims: [bob] });
    const request = { email: bob.email, role: 'member' as const };
    await expect(addMember(caller('u-9'), 'prj_a', request, origin, now)).rejects.toMatchObject({
      status: 404,
      message: ErrorText.projectNotFound,
    });
    await expect(addMember(caller('u-3'), 'prj_a', request, origin, now)).rejects.toMatchObject({
      status: 403,
      message: ErrorText.projectRole,
    });
  });

  it('answers 409 for a member already', async () => {
    const { addMember } = fakeProjects({ members: [member('u-1', 'owner'), member('u-2', 'member')], claims: [bob] });
    await expect(addMember(session, 'prj_a', { email: bob.email, role: 'admin' }, origin, now)).rejects.toMatchObject({
      status: 409,
      message: ErrorText.alreadyMember,
    });
  });
});

describe('removeMember', () => {
  it('removes the member who holds the address, and records member.removed', async () => {
    const { removeMember, members, events } = fakeProjects({
      members: [member('u-1', 'owner'), member('u-2', 'member')],
      claims: [bob],
    });
    await removeMember(session, 'prj_a', bob.email, origin, now);
    expect(members.has(key('prj_a', 'u-2'))).toBe(false);
    expect(events).toEqual([
      eventLike('member.removed', { target: expect.objectContaining({ projectId: 'prj_a', userId: 'u-2' }) }),
    ]);
  });

  it('answers 409 for the owner, and 404 for an address that finds no member', async () => {
    const owner: EmailClaim = { email: 'ada@example.com', userId: 'u-1' };
    const { removeMember, members } = fakeProjects({
      members: [member('u-1', 'owner'), member('u-3', 'admin')],
      claims: [owner, bob],
    });
    await expect(removeMember(caller('u-3'), 'prj_a', owner.email, origin, now)).rejects.toMatchObject({
      status: 409,
      message: ErrorText.ownerRemoval,
    });
    for (const email of [bob.email, 'nobody@example.com']) {
      await expect(removeMember(session, 'prj_a', email, origin, now)).rejects.toMatchObject({
        status: 404,
        message: ErrorText.memberNotFound,
      });
    }
    expect(members.size).toBe(2);
  });

  it('answers 403 to a plain member removing another, and 404 to a caller outside the project', async () => {
    const { removeMember } = fakeProjects({
      members: [member('u-1', 'owner'), member('u-2', 'member'), member('u-3', 'member')],
      claims: [bob],
    });
    await expect(removeMember(caller('u-3'), 'prj_a', bob.email, origin, now)).rejects.toMatchObject({
      status: 403,
      message: ErrorText.projectRole,
    });
    await expect(removeMember(caller('u-9'), 'prj_a', bob.email, origin, now)).rejects.toMatchObject({
      status: 404,
      message: ErrorText.projectNotFound,
    });
  });
});

describe('leaveProject', () => {
  it('takes a member or an admin out of the project, and records member.left by and about them', async () => {
    for (const role of ['member', 'admin'] as const) {
      const { leaveProject, members, events } = fakeProjects({
        members: [member('u-2', 'owner'), member('u-1', role)],
      });
      await leaveProject(session, 'prj_a', origin, now);
      expect(members.has(key('prj_a', 'u-1'))).toBe(false);
      expect(events).toEqual([
        eventLike('member.left', {
          actor: expect.objectContaining({ userId: 'u-1', email: 'ada@example.com' }),
          target: expect.objectContaining({ projectId: 'prj_a', userId: 'u-1', email: 'ada@example.com' }),
        }),
      ]);
    }
  });

  it('answers 409 to the owner and 404 to a caller outside the project, changing nothing', async () => {
    const { leaveProject, members, events } = fakeProjects({ members: [member('u-1', 'owner')] });
    await expect(leaveProject(session, 'prj_a', origin, now)).rejects.toMatchObject({
      status: 409,
      message: ErrorText.ownerRemoval,
    });
    await expect(leaveProject(caller('u-9'), 'prj_a', origin, now)).rejects.toMatchObject({
      status: 404,
      message: ErrorText.projectNotFound,
    });
    expect(members.size).toBe(1);
    expect(events).toEqual([]);
  });
});

describe('markMembershipSeen', () => {
  it('marks a membership opened, so that its notice goes, and keeps the first time it was opened', async () => {
    const { markMembershipSeen, listProjects, members } = fakeProjects({
      members: [added(project, '2026-11-21T00:00:00.000Z')],
    });
    await markMembershipSeen(session, 'prj_a', now);
    expect(members.get(key('prj_a', 'u-1'))?.seenAt).toBe(now.toISOString());
    expect((await listProjects(session))[0]).toMatchObject({ addedBy: null, addedAt: null });
    await markMembershipSeen(session, 'prj_a', new Date('2026-11-26T00:00:00.000Z'));
    expect(members.get(key('prj_a', 'u-1'))?.seenAt).toBe(now.toISOString());
  });

  it('answers nothing to mark for a membership without a notice, and 404 to a caller outside the project', async () => {
    const { markMembershipSeen, members } = fakeProjects({ members: [member('u-1', 'owner')] });
    await expect(markMembershipSeen(session, 'prj_a', now)).resolves.toBeUndefined();
    expect(members.get(key('prj_a', 'u-1'))?.seenAt).toBeUndefined();
    await expect(markMembershipSeen(caller('u-9'), 'prj_a', now)).rejects.toMatchObject({
      status: 404,
      message: ErrorText.projectNotFound,
    });
  });
});

describe('setMemberAccess', () => {
  const production: EnvironmentRecord = {
    projectId: 'prj_a',
    name: 'production',
    createdAt: project.createdAt,
    secretCount: 0,
    life: 'life-2',
  };
  const staging: EnvironmentRecord = { ...production, name: 'staging', life: 'life-1' };
  const team = ({
    meanwhile,
    bobsAccess,
    environments = [production, staging],
  }: {
    meanwhile?: (members: Map<string, MemberRecord>) => void;
    bobsAccess?: MemberRecord['access'];
    environments?: EnvironmentRecord[];
  } = {}) =>
    fakeProjects({
      members: [
        member('u-1', 'owner'),
        { ...member('u-2', 'member'), ...(bobsAccess && { access: bobsAccess }) },
        member('u-3', 'admin'),
      ],
      claims: [
        bob,
        { email: 'ann@example.com', userId: 'u-3' },
        { email: 'zed@example.com', userId: 'u-1' },
        { email: 'cy@example.com', userId: 'u-4' },
      ],
      profiles: [{ userId: 'u-2', email: bob.email }],
      environments,
      meanwhile,
    });
  const bobKey = key('prj_a', 'u-2');
  /** Another manager setting bob's staging to none, before each of the first `times` access writes. */
  const stagingClosedBefore = (times: number) => {
    let left = times;
    return (members: Map<string, MemberRecord>) => {
      const stored = members.get(bobKey);
      if (left <= 0 || !stored) return;
      left -= 1;
      members.set(bobKey, {
        ...stored,
        access: { ...stored.access, staging: { level: 'none', life: 'life-1' } },
        accessRevision: (stored.accessRevision ?? 0) + 1,
      });
    };
  };

  it('sets a member’s level in the environments named, keeps the others, and lists it', async () => {
    const { setMemberAccess, listMembers, events } = team();
    const shown = await setMemberAccess(session, 'prj_a', bob.email, { production: 'read' }, origin, now);
    expect(shown).toEqual({
      userId: 'u-2',
      email: bob.email,
      role: 'member',
      access: { production: 'read', staging: 'write' },
    });
    await setMemberAccess(session, 'prj_a', bob.email, { staging: 'none' }, origin, now);
    expect((await listMembers(session, 'prj_a')).find((m) => m.userId === 'u-2')?.access).toEqual({
      production: 'read',
      staging: 'none',
    });
    expect(events.map((event) => [event.type, event.details.access])).toEqual([
      ['member.access_changed', { production: 'read' }],
      ['member.access_changed', { staging: 'none' }],
    ]);
    expect(events[0]).toEqual(
      eventLike('member.access_changed', {
        target: expect.objectContaining({ projectId: 'prj_a', userId: 'u-2', email: bob.email }),
      }),
    );
  });

  it('sets the level of an environment made before environments had lives', async () => {
    const { setMemberAccess } = team({ environments: [{ ...production, life: undefined }] });
    expect((await setMemberAccess(session, 'prj_a', bob.email, { production: 'read' }, origin, now)).access).toEqual({
      production: 'read',
    });
  });

  it('drops the levels the member held in environments deleted since', async () => {
    const { setMemberAccess, members } = team({
      bobsAccess: {
        qa: { level: 'read', life: 'life-9' },
        staging: { level: 'none', life: 'life-1' },
      },
    });
    await setMemberAccess(session, 'prj_a', bob.email, { production: 'read' }, origin, now);
    expect(members.get(bobKey)?.access).toEqual({
      staging: { level: 'none', life: 'life-1' },
      production: { level: 'read', life: 'life-2' },
    });
  });

  it('keeps a change another manager wrote first, reading the member again up to five times', async () => {
    const { setMemberAccess, events } = team({ meanwhile: stagingClosedBefore(4) });
    const shown = await setMemberAccess(session, 'prj_a', bob.email, { production: 'read' }, origin, now);
    expect(shown.access).toEqual({ production: 'read', staging: 'none' });
    expect(events.map((event) => event.details.access)).toEqual([{ production: 'read' }]);
  });

  it('answers 503 when the member’s access moved before each of five writes, writing nothing', async () => {
    const { setMemberAccess, members, events } = team({ meanwhile: stagingClosedBefore(5) });
    await expect(setMemberAccess(session, 'prj_a', bob.email, { production: 'read' }, origin, now)).rejects.toThrow(
      ServiceUnavailableError,
    );
    expect([members.get(bobKey)?.access?.production, events]).toEqual([undefined, []]);
  });

  it('answers 404 Project not found to an admin removed before the write, writing nothing', async () => {
    const { setMemberAccess, members, events } = team({ meanwhile: (stored) => stored.delete(key('prj_a', 'u-3')) });
    await expect(
      setMemberAccess(caller('u-3'), 'prj_a', bob.email, { production: 'read' }, origin, now),
    ).rejects.toThrow(ErrorText.projectNotFound);
    expect([members.get(bobKey)?.access, events]).toEqual([undefined, []]);
  });

  it('answers 409 for an owner or an admin, who write everywhere, and 404 for a stranger or an unknown environment', async () => {
    const { setMemberAccess, events } = team();
    await expect(
      setMemberAccess(session, 'prj_a', 'ann@example.com', { production: 'read' }, origin, now),
    ).rejects.toThrow(ErrorText.accessFixed);
    await expect(
      setMemberAccess(session, 'prj_a', 'nobody@example.com', { production: 'read' }, origin, now),
    ).rejects.toThrow(ErrorText.memberNotFound);
    await expect(
      setMemberAccess(session, 'prj_a', 'cy@example.com', { production: 'read' }, origin, now),
    ).rejects.toThrow(ErrorText.memberNotFound);
    await expect(setMemberAccess(session, 'prj_a', bob.email, { qa: 'read' }, origin, now)).rejects.toThrow(
      ErrorText.environmentNotFound,
    );
    expect(events).toEqual([]);
  });

  it('refuses a plain member with 403, whose own access does not change', async () => {
    const { setMemberAccess } = team();
    await expect(
      setMemberAccess(caller('u-2'), 'prj_a', bob.email, { production: 'write' }, origin, now),
    ).rejects.toThrow(ErrorText.projectRole);
  });
});
