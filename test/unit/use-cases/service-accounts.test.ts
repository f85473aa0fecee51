import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { ForbiddenError, NotFoundError } from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type { EnvironmentRecord, MemberRecord, ServiceAccountRecord } from '@lambdas/domain/records';
import { type ServiceAccountStore, serviceAccountUseCases } from '@lambdas/use-cases/service-accounts';
import { eventLike, memberRecord, now, origin, session } from './fakes';

const projectId = 'prj_a';
const member = (userId: string, role: MemberRecord['role']) => memberRecord(userId, role, projectId);
const environment = (name: string, life: string): EnvironmentRecord => ({
  projectId,
  name,
  createdAt: '2026-11-01T00:00:00.000Z',
  secretCount: 0,
  life,
});

/** One project's members, environments and service accounts in memory. */
const fakeServiceAccounts = (members: MemberRecord[], environments: EnvironmentRecord[]) => {
  const stored = new Map<string, ServiceAccountRecord>();
  const events: AuditEvent[] = [];
  let next = 0;
  const store: ServiceAccountStore = {
    getMember: async (project, userId) => members.find((m) => m.projectId === project && m.userId === userId),
    listEnvironments: async () => [...environments],
    listServiceAccounts: async () => [...stored.values()],
    getServiceAccount: async (_project, id) => stored.get(id),
    createServiceAccount: async (_manager, created, event) => {
      stored.set(created.serviceAccountId, created);
      events.push(event);
    },
    updateServiceAccount: async (_manager, changed, event) => {
      stored.set(changed.serviceAccountId, changed);
      events.push(event);
    },
    deleteServiceAccount: async (_manager, _project, id, event) => {
      stored.delete(id);
      events.push(event);
    },
  };
  const useCases = serviceAccountUseCases({ serviceAccounts: store, newServiceAccountId: () => `sa_${++next}` });
  return { ...useCases, stored, events, environments };
};

const as = (userId: string): Principal => ({ ...session, userId });
const team = () => [member('u-1', 'owner'), member('u-2', 'admin'), member('u-3', 'member')];

describe('service account use cases', () => {
  it('binds the access it is created with to each environment’s life, and records who made it', async () => {
    const accounts = fakeServiceAccounts(team(), [environment('staging', 'L1'), environment('production', 'L2')]);
    const created = await accounts.createServiceAccount(
      as('u-2'),
      projectId,
      { name: 'deploy', description: '', access: { staging: 'read', production: 'write' } },
      origin,
      now,
    );
    expect(created).toEqual({
      id: 'sa_1',
      name: 'deploy',
      description: null,
      access: { staging: 'read', production: 'write' },
      createdAt: now.toISOString(),
      createdBy: { userId: 'u-2', email: session.email },
    });
    expect(accounts.stored.get('sa_1')?.access).toEqual({
      staging: { level: 'read', life: 'L1' },
      production: { level: 'write', life: 'L2' },
    });
    expect(accounts.events).toEqual([
      eventLike('service_account.created', {
        target: expect.objectContaining({ projectId, serviceAccountId: 'sa_1' }),
        details: expect.objectContaining({ name: 'deploy', access: { staging: 'read', production: 'write' } }),
      }),
    ]);
  });

  it('refuses access to an environment the project lacks (404), a plain member (403) and a stranger (404)', async () => {
    const accounts = fakeServiceAccounts(team(), [environment('staging', 'L1')]);
    const request = { name: 'x', access: { qa: 'read' as const } };
    await expect(accounts.createServiceAccount(as('u-1'), projectId, request, origin, now)).rejects.toEqual(
      new NotFoundError(ErrorText.environmentNotFound),
    );
    await expect(
      accounts.createServiceAccount(as('u-3'), projectId, { name: 'x', access: {} }, origin, now),
    ).rejects.toEqual(new ForbiddenError(ErrorText.projectRole));
    await expect(accounts.listServiceAccounts(as('u-9'), projectId)).rejects.toEqual(
      new NotFoundError(ErrorText.projectNotFound),
    );
    expect(accounts.stored.size).toBe(0);
    expect(accounts.events).toEqual([]);
  });

  it('shows only access to environments in the life it was set in, and lists by name', async () => {
    const accounts = fakeServiceAccounts(team(), [environment('staging', 'L1'), environment('production', 'L2')]);
    const request = { name: 'zeta', access: { staging: 'read' as const, production: 'write' as const } };
    await accounts.createServiceAccount(as('u-1'), projectId, request, origin, now);
    await accounts.createServiceAccount(as('u-1'), projectId, { name: 'alpha', access: {} }, origin, now);
    // staging deleted and made again: a new life, which the access was not set in.
    accounts.environments.splice(0, 1, environment('staging', 'L3'));
    const listed = await accounts.listServiceAccounts(as('u-3'), projectId);
    expect(listed.map((entry) => [entry.name, entry.access])).toEqual([
      ['alpha', {}],
      ['zeta', { production: 'write' }],
    ]);
  });

  it('changes only what is given, replacing the whole access, and records the access it now has', async () => {
    const accounts = fakeServiceAccounts(team(), [environment('staging', 'L1'), environment('production', 'L2')]);
    const request = { name: 'bot', description: 'first', access: { staging: 'read' as const } };
    await accounts.createServiceAccount(as('u-1'), projectId, request, origin, now);
    const changed = await accounts.updateServiceAccount(
      as('u-2'),
      projectId,
      'sa_1',
      { access: { production: 'read' } },
      origin,
      now,
    );
    expect([changed.name, changed.description, changed.access]).toEqual(['bot', 'first', { production: 'read' }]);
    expect(accounts.events.at(-1)).toEqual(
      eventLike('service_account.updated', {
        details: expect.objectContaining({ name: 'bot', access: { production: 'read' } }),
      }),
    );
    await expect(
      accounts.updateServiceAccount(as('u-1'), projectId, 'sa_9', { name: 'y' }, origin, now),
    ).rejects.toEqual(new NotFoundError(ErrorText.serviceAccountNotFound));
  });

  it('deletes one with an event naming it, and answers 404 for one that is gone', async () => {
    const accounts = fakeServiceAccounts(team(), []);
    await accounts.createServiceAccount(as('u-1'), projectId, { name: 'bot', access: {} }, origin, now);
    await accounts.deleteServiceAccount(as('u-2'), projectId, 'sa_1', origin, now);
    expect(accounts.stored.size).toBe(0);
    expect(accounts.events.at(-1)).toEqual(
      eventLike('service_account.deleted', {
        target: expect.objectContaining({ serviceAccountId: 'sa_1' }),
        details: expect.objectContaining({ name: 'bot' }),
      }),
    );
    await expect(accounts.deleteServiceAccount(as('u-1'), projectId, 'sa_1', origin, now)).rejects.toEqual(
      new NotFoundError(ErrorText.serviceAccountNotFound),
    );
  });
});

describe('getServiceAccount', () => {
  it('answers one service account to any member, with its access to the environments that exist', async () => {
    const accounts = fakeServiceAccounts(team(), [environment('staging', 'L1')]);
    const request = { name: 'bot', description: 'ships', access: { staging: 'write' as const } };
    await accounts.createServiceAccount(as('u-1'), projectId, request, origin, now);

    expect(await accounts.getServiceAccount(as('u-3'), projectId, 'sa_1')).toEqual({
      id: 'sa_1',
      name: 'bot',
      description: 'ships',
      access: { staging: 'write' },
      createdAt: now.toISOString(),
      createdBy: { userId: 'u-1', email: session.email },
    });
  });

  it('answers 404 to a stranger, and for a service account that is not there', async () => {
    const accounts = fakeServiceAccounts(team(), []);
    await accounts.createServiceAccount(as('u-1'), projectId, { name: 'bot', access: {} }, origin, now);

    await expect(accounts.getServiceAccount(as('u-9'), projectId, 'sa_1')).rejects.toEqual(
      new NotFoundError(ErrorText.projectNotFound),
    );
    await expect(accounts.getServiceAccount(as('u-3'), projectId, 'sa_2')).rejects.toEqual(
      new NotFoundError(ErrorText.serviceAccountNotFound),
    );
  });
});

describe('service accounts, further rules', () => {
  it('lists service accounts of the same name by id', async () => {
    const accounts = fakeServiceAccounts(team(), []);
    for (const name of ['bot', 'bot', 'alpha']) {
      await accounts.createServiceAccount(as('u-1'), projectId, { name, access: {} }, origin, now);
    }
    accounts.stored.set('sa_0', { ...(accounts.stored.get('sa_1') as ServiceAccountRecord), serviceAccountId: 'sa_0' });

    const listed = await accounts.listServiceAccounts(as('u-1'), projectId);

    expect(listed.map((entry) => [entry.name, entry.id])).toEqual([
      ['alpha', 'sa_3'],
      ['bot', 'sa_0'],
      ['bot', 'sa_1'],
      ['bot', 'sa_2'],
    ]);
  });

  it('keeps an empty description as none, and removes one changed to null', async () => {
    const accounts = fakeServiceAccounts(team(), []);
    const created = await accounts.createServiceAccount(
      as('u-1'),
      projectId,
      { name: 'bot', description: '', access: {} },
      origin,
      now,
    );
    const described = await accounts.updateServiceAccount(
      as('u-1'),
      projectId,
      'sa_1',
      { description: 'ships' },
      origin,
      now,
    );
    const removed = await accounts.updateServiceAccount(
      as('u-1'),
      projectId,
      'sa_1',
      { description: null },
      origin,
      now,
    );

    expect([created.description, described.description, removed.description, removed.name]).toEqual([
      null,
      'ships',
      null,
      'bot',
    ]);
  });

  it('binds access to an environment without lives to its level alone, which then holds', async () => {
    const withoutLife: EnvironmentRecord = { projectId, name: 'legacy', createdAt: now.toISOString(), secretCount: 0 };
    const accounts = fakeServiceAccounts(team(), [withoutLife]);

    const created = await accounts.createServiceAccount(
      as('u-1'),
      projectId,
      { name: 'bot', access: { legacy: 'read' } },
      origin,
      now,
    );

    expect(accounts.stored.get('sa_1')?.access).toEqual({ legacy: { level: 'read' } });
    expect(created.access).toEqual({ legacy: 'read' });
  });

  it('renames one, keeping its description and access, with an event naming it as it is now', async () => {
    const accounts = fakeServiceAccounts(team(), [environment('staging', 'L1')]);
    const request = { name: 'bot', description: 'ships', access: { staging: 'read' as const } };
    await accounts.createServiceAccount(as('u-1'), projectId, request, origin, now);

    const renamed = await accounts.updateServiceAccount(
      as('u-1'),
      projectId,
      'sa_1',
      { name: 'deployer' },
      origin,
      now,
    );

    expect([renamed.name, renamed.description, renamed.access]).toEqual(['deployer', 'ships', { staging: 'read' }]);
    expect(accounts.stored.get('sa_1')?.name).toBe('deployer');
    expect(accounts.events.at(-1)).toEqual(
      eventLike('service_account.updated', {
        target: expect.objectContaining({ projectId, serviceAccountId: 'sa_1' }),
        details: expect.objectContaining({ name: 'deployer', access: { staging: 'read' } }),
      }),
    );
  });

  it('lets only the owner and admins change or delete a service account', async () => {
    const accounts = fakeServiceAccounts(team(), []);
    await accounts.createServiceAccount(as('u-1'), projectId, { name: 'bot', access: {} }, origin, now);

    await expect(
      accounts.updateServiceAccount(as('u-3'), projectId, 'sa_1', { name: 'x' }, origin, now),
    ).rejects.toEqual(new ForbiddenError(ErrorText.projectRole));
    await expect(accounts.deleteServiceAccount(as('u-3'), projectId, 'sa_1', origin, now)).rejects.toEqual(
      new ForbiddenError(ErrorText.projectRole),
    );
    expect(accounts.stored.get('sa_1')?.name).toBe('bot');
  });
});
