import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { MAX_ENVIRONMENTS } from '@contract/limits';
import { ConflictError, NotFoundError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type { EnvironmentRecord, MemberRecord } from '@lambdas/domain/records';
import { type EnvironmentStore, environmentUseCases } from '@lambdas/use-cases/environments';
import { eventLike, memberRecord, now, origin, session } from './fakes';

const projectId = 'prj_a';
const member = (userId: string, role: MemberRecord['role']) => memberRecord(userId, role, projectId);
const environment = (name: string, secretCount = 0): EnvironmentRecord => ({
  projectId,
  name,
  createdAt: '2026-11-01T00:00:00.000Z',
  secretCount,
});

/**
 * One project's members and environments in memory; the writes check what the repository's conditions check.
 * `meanwhile` is another request's change, landing between an update's reads and its write.
 */
const fakeEnvironments = (
  members: MemberRecord[],
  stored: EnvironmentRecord[],
  meanwhile?: (byName: Map<string, EnvironmentRecord>) => void,
) => {
  const byName = new Map(stored.map((entry) => [entry.name, entry]));
  const events: AuditEvent[] = [];
  const manages = (userId: string) => ['owner', 'admin'].includes(members.find((m) => m.userId === userId)?.role ?? '');
  const store: EnvironmentStore = {
    getMember: async (project, userId) => members.find((m) => m.projectId === project && m.userId === userId),
    listEnvironments: async (project) => [...byName.values()].filter((entry) => entry.projectId === project),
    getEnvironment: async (project, name) => (project === projectId ? byName.get(name) : undefined),
    updateEnvironment: async (managerUserId, changed, event) => {
      meanwhile?.(byName);
      if (!manages(managerUserId) || byName.get(changed.name)?.life !== changed.life) return false;
      byName.set(changed.name, { ...changed, revision: (byName.get(changed.name)?.revision ?? 0) + 1 });
      events.push(event);
      return true;
    },
    createEnvironment: async (managerUserId, created, event) => {
      if (!manages(managerUserId)) throw new NotFoundError(ErrorText.projectNotFound);
      if (byName.has(created.name)) throw new ConflictError(ErrorText.environmentExists);
      if (byName.size >= MAX_ENVIRONMENTS) throw new ConflictError(ErrorText.environmentLimit);
      byName.set(created.name, created);
      events.push(event);
    },
    deleteEnvironment: async (managerUserId, _project, name, event) => {
      if (!manages(managerUserId)) throw new NotFoundError(ErrorText.projectNotFound);
      const found = byName.get(name);
      if (!found) throw new NotFoundError(ErrorText.environmentNotFound);
      if (found.secretCount > 0) throw new ConflictError(ErrorText.environmentNotEmpty);
      byName.delete(name);
      events.push(event);
    },
  };
  return { ...environmentUseCases({ environments: store }), byName, events };
};

const as = (userId: string): Principal => ({ ...session, userId });
/** The settings of an environment nobody changed, as a member with write access sees them. */
const openWrite = { access: 'write', protected: false, approvals: 1, defaultAccess: 'write' } as const;
const team = [member('u-1', 'owner'), member('u-2', 'member'), member('u-3', 'admin')];

describe('listEnvironments', () => {
  it('lists by name for any member, without the project id', async () => {
    const { listEnvironments } = fakeEnvironments(team, [environment('staging', 2), environment('development')]);
    expect(await listEnvironments(as('u-2'), projectId)).toEqual([
      { name: 'development', createdAt: '2026-11-01T00:00:00.000Z', secretCount: 0, ...openWrite },
      { name: 'staging', createdAt: '2026-11-01T00:00:00.000Z', secretCount: 2, ...openWrite },
    ]);
  });

  it('lists by name whatever order the store answers in', async () => {
    const names = ['development', 'production', 'staging'];
    for (const stored of [names, [...names].reverse()]) {
      const { listEnvironments } = fakeEnvironments(
        team,
        stored.map((name) => environment(name)),
      );
      expect((await listEnvironments(as('u-2'), projectId)).map((listed) => listed.name)).toEqual(names);
    }
  });

  it('answers 404 Project not found to a non-member', async () => {
    const { listEnvironments } = fakeEnvironments(team, [environment('staging')]);
    await expect(listEnvironments(as('u-9'), projectId)).rejects.toThrow(ErrorText.projectNotFound);
  });
});

describe('createEnvironment', () => {
  it('adds an empty environment for an admin and records environment.created', async () => {
    const { createEnvironment, byName, events } = fakeEnvironments(team, []);
    expect(await createEnvironment(as('u-3'), projectId, 'qa', origin, now)).toEqual({
      name: 'qa',
      createdAt: now.toISOString(),
      secretCount: 0,
      ...openWrite,
    });
    expect(byName.has('qa')).toBe(true);
    expect(events).toEqual([
      eventLike('environment.created', {
        target: expect.objectContaining({ projectId }),
        details: expect.objectContaining({ environment: 'qa' }),
      }),
    ]);
  });

  it('refuses a plain member with 403 and a stranger with 404, writing nothing', async () => {
    const { createEnvironment, byName, events } = fakeEnvironments(team, []);
    await expect(createEnvironment(as('u-2'), projectId, 'qa', origin, now)).rejects.toThrow(ErrorText.projectRole);
    await expect(createEnvironment(as('u-9'), projectId, 'qa', origin, now)).rejects.toThrow(ErrorText.projectNotFound);
    expect([byName.size, events]).toEqual([0, []]);
  });
});

describe('deleteEnvironment', () => {
  it('deletes an empty environment for the owner and records environment.deleted', async () => {
    const { deleteEnvironment, byName, events } = fakeEnvironments(team, [environment('qa')]);
    await deleteEnvironment(as('u-1'), projectId, 'qa', origin, now);
    expect(byName.has('qa')).toBe(false);
    expect(events).toEqual([
      eventLike('environment.deleted', {
        target: expect.objectContaining({ projectId }),
        details: expect.objectContaining({ environment: 'qa' }),
      }),
    ]);
  });

  it('refuses a plain member with 403 before it touches the environment', async () => {
    const { deleteEnvironment, byName } = fakeEnvironments(team, [environment('qa')]);
    await expect(deleteEnvironment(as('u-2'), projectId, 'qa', origin, now)).rejects.toThrow(ErrorText.projectRole);
    expect(byName.has('qa')).toBe(true);
  });
});

describe('updateEnvironment', () => {
  it('lets an admin protect an environment and ask two approvals, recorded as environment.updated', async () => {
    const { updateEnvironment, byName, events } = fakeEnvironments(team, [environment('production')]);
    const changed = await updateEnvironment(
      as('u-3'),
      projectId,
      'production',
      { protected: true, approvals: 2 },
      origin,
      now,
    );
    expect(changed).toEqual({
      ...openWrite,
      name: 'production',
      createdAt: '2026-11-01T00:00:00.000Z',
      secretCount: 0,
      protected: true,
      approvals: 2,
    });
    expect(byName.get('production')).toMatchObject({ protected: true, approvals: 2, revision: 1 });
    expect(events).toEqual([
      eventLike('environment.updated', {
        target: expect.objectContaining({ projectId }),
        details: expect.objectContaining({
          environment: 'production',
          protected: true,
          approvals: 2,
          defaultAccess: null,
        }),
      }),
    ]);
  });

  it('shows a plain member the default access an owner set, and refuses them the change with 403', async () => {
    const { updateEnvironment, listEnvironments } = fakeEnvironments(team, [environment('production')]);
    await updateEnvironment(as('u-1'), projectId, 'production', { defaultAccess: 'read' }, origin, now);
    expect((await listEnvironments(as('u-2'), projectId))[0]).toMatchObject({ access: 'read', defaultAccess: 'read' });
    expect((await listEnvironments(as('u-3'), projectId))[0]).toMatchObject({ access: 'write' });
    await expect(
      updateEnvironment(as('u-2'), projectId, 'production', { defaultAccess: 'write' }, origin, now),
    ).rejects.toThrow(ErrorText.projectRole);
  });

  it('answers 404 for an environment deleted and made again before the change is written, changing nothing', async () => {
    const remade = { ...environment('production'), life: 'life-2' };
    const { updateEnvironment, byName, events } = fakeEnvironments(
      team,
      [{ ...environment('production'), life: 'life-1' }],
      (stored) => stored.set('production', remade),
    );
    await expect(
      updateEnvironment(as('u-1'), projectId, 'production', { protected: true }, origin, now),
    ).rejects.toThrow(ErrorText.environmentNotFound);
    expect([byName.get('production'), events]).toEqual([remade, []]);
  });

  it('answers 403 to an admin made a plain member before the change is written, changing nothing', async () => {
    const members = [...team];
    const { updateEnvironment, byName, events } = fakeEnvironments(members, [environment('production')], () => {
      members[2] = member('u-3', 'member');
    });
    await expect(
      updateEnvironment(as('u-3'), projectId, 'production', { protected: true }, origin, now),
    ).rejects.toThrow(ErrorText.projectRole);
    expect([byName.get('production'), events]).toEqual([environment('production'), []]);
  });

  it('answers 404 Environment not found for an environment the project lacks', async () => {
    const { updateEnvironment } = fakeEnvironments(team, []);
    await expect(updateEnvironment(as('u-1'), projectId, 'qa', { protected: true }, origin, now)).rejects.toThrow(
      ErrorText.environmentNotFound,
    );
  });
});
