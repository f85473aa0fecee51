import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { CHANGE_REQUEST_DAYS, MAX_OPEN_CHANGE_REQUESTS } from '@contract/limits';
import { dataKeys, decryptValue, encryptValue } from '@lambdas/crypto/envelope';
import { localKeyWrapper } from '@lambdas/crypto/local-key-wrapper';
import { sameDigest, valueDigest } from '@lambdas/crypto/value-digest';
import {
  ConflictError,
  DecryptionError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
} from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type {
  ChangeRequestRecord,
  EnvironmentRecord,
  MemberRecord,
  ProjectRecord,
  ProposedValue,
  SecretHeadRecord,
  SecretVersionRecord,
  SecretWriteOutcome,
  StoredSlotMap,
} from '@lambdas/domain/records';
import {
  approveChangeRequest,
  type ChangeRequestStore,
  changeRequestValues,
  closeChangeRequest,
  forceChangeRequest,
  getChangeRequest,
  listChangeRequests,
  promote,
  proposeChange,
} from '@lambdas/use-cases/change-requests';
import {
  deleteSecret,
  getSecret,
  type InEnvironment,
  putSecret,
  type SecretDeps,
  type SecretStore,
} from '@lambdas/use-cases/secrets';
import { eventLike, now, origin, session } from './fakes';

const projectId = 'prj_a';
const DAY_MS = 24 * 60 * 60 * 1000;
const people: Record<string, { role: MemberRecord['role']; email: string }> = {
  'u-1': { role: 'owner', email: 'ada@example.com' },
  'u-2': { role: 'admin', email: 'bob@example.com' },
  'u-3': { role: 'member', email: 'cy@example.com' },
  'u-4': { role: 'member', email: 'di@example.com' },
};

/** A request of `userId`'s session in `production`, `days` after `now`. */
const by = (userId: string, days = 0): InEnvironment => {
  const caller: Principal = { ...session, userId, email: people[userId]?.email ?? 'x@example.com' };
  return {
    caller,
    origin,
    now: new Date(now.getTime() + days * DAY_MS),
    projectId,
    environment: 'production',
  };
};

/**
 * One project's protected `production` (and an open `staging`) in memory: its members, heads and
 * versions, and its change requests. The writes check what the repositories' transactions check that
 * these rules lean on: each head at the version read, a request changed only as it was read (its
 * revision), and a project's first data key stored only while it has none. `hooks` answer the next
 * writes as another writer would have made them fail first.
 */
const fakeWorld = (settings: Partial<EnvironmentRecord> = {}) => {
  let environment: EnvironmentRecord = {
    projectId,
    name: 'production',
    createdAt: '2026-11-01T00:00:00.000Z',
    secretCount: 0,
    life: 'L1',
    protected: true,
    ...settings,
  };
  const staging: EnvironmentRecord = { ...environment, name: 'staging', life: 'S1', protected: false };
  let project: ProjectRecord = { projectId, name: 'Apollo', createdAt: '2026-11-01T00:00:00.000Z' };
  const heads = new Map<string, SecretHeadRecord>();
  const stagingHeads = new Map<string, SecretHeadRecord>();
  const placeOf = (place: string) =>
    place === 'staging' ? { environment: staging, heads: stagingHeads } : { environment, heads };
  const headsNamed = (place: string, names: readonly string[]) => {
    const within = placeOf(place).heads;
    return new Map(names.flatMap((name) => (within.has(name) ? [[name, within.get(name) as SecretHeadRecord]] : [])));
  };
  const versions = new Map<string, SecretVersionRecord>();
  const requests = new Map<string, ChangeRequestRecord>();
  const proposed = new Map<string, ProposedValue[]>();
  const slots: { stored: StoredSlotMap | undefined } = { stored: undefined };
  const events: AuditEvent[] = [];
  const hooks: {
    creates: 'changed'[];
    writes: SecretWriteOutcome[];
    updates: ('requestChanged' | 'refused')[];
  } = { creates: [], writes: [], updates: [] };
  const attempts = { creates: 0, writes: 0 };
  const updates: { status: string; actor: { userId: string; byManager: boolean } }[] = [];
  const member = (userId: string): MemberRecord | undefined => {
    const person = people[userId];
    return person && { projectId, projectName: 'Apollo', projectCreatedAt: '', userId, role: person.role, addedAt: '' };
  };
  const unused = async (): Promise<never> => {
    throw new Error('not read by a change request');
  };
  const secretStore: SecretStore = {
    readSecretContext: async (_id, userId, place, names, withProject) => ({
      member: member(userId),
      environment: placeOf(place).environment,
      project: withProject ? project : undefined,
      heads: headsNamed(place, names),
    }),
    readPairContext: async (_id, userId, pair, names, withProject) => ({
      member: member(userId),
      project: withProject ? project : undefined,
      from: { environment: placeOf(pair.from).environment, heads: headsNamed(pair.from, names) },
      to: { environment: placeOf(pair.to).environment, heads: headsNamed(pair.to, names) },
    }),
    getSecretVersion: async (_id, place, name, _life, version) => versions.get(`${place}/${name}/${version}`),
    listSecretHeads: unused,
    listSecretVersions: unused,
    readHeadValues: unused,
    readReferenced: unused,
    writeSecrets: async (change) => {
      attempts.writes += 1;
      const failed = hooks.writes.shift();
      if (failed) return failed;
      const within = placeOf(change.environment).heads;
      for (const { head, readVersion } of change.writes) {
        if (within.get(head.name)?.version !== readVersion) return 'changed';
      }
      if (change.newDataKey !== undefined && project.dataKey !== undefined) return 'changed';
      if (change.closing) {
        if (requests.get(change.closing.read.id)?.revision !== change.closing.read.revision) return 'requestChanged';
        requests.set(change.closing.closed.id, change.closing.closed);
      }
      for (const { head, version, event } of change.writes) {
        within.set(head.name, head);
        versions.set(`${change.environment}/${head.name}/${version.version}`, version);
        events.push(event);
      }
      events.push(...(change.closing?.events ?? []));
      if (change.newDataKey) project = { ...project, dataKey: change.newDataKey };
      return 'written';
    },
    recordEvent: async (event) => {
      events.push(event);
    },
  };
  const crypto = {
    keys: dataKeys(localKeyWrapper()),
    encryptValue,
    decryptValue,
    digestValue: valueDigest,
    sameDigest,
  };
  const secrets: SecretDeps = { secrets: secretStore, crypto };
  const store: ChangeRequestStore = {
    getChangeRequest: async (_id, _place, id) => requests.get(id),
    listChangeRequests: async () => [...requests.values()],
    getProposedValues: async (_id, _place, id) => proposed.get(id) ?? [],
    getChangeSlots: async () => slots.stored,
    createChangeRequest: async (created) => {
      attempts.creates += 1;
      if (hooks.creates.shift()) return 'changed';
      if (created.newDataKey !== undefined && project.dataKey !== undefined) return 'changed';
      requests.set(created.request.id, created.request);
      proposed.set(created.request.id, [...created.values]);
      const kept = Object.entries(slots.stored?.slots ?? {}).filter(([id]) => !created.slots.freed.includes(id));
      slots.stored = {
        version: (slots.stored?.version ?? 0) + 1,
        slots: Object.fromEntries([...kept, ...created.slots.set]),
      };
      events.push(created.event);
      if (created.newDataKey) project = { ...project, dataKey: created.newDataKey };
      return 'written';
    },
    updateChangeRequest: async (read, next, written, actor) => {
      const failed = hooks.updates.shift();
      if (failed) return failed;
      if (requests.get(read.id)?.revision !== read.revision) return 'requestChanged';
      requests.set(next.id, next);
      updates.push({ status: next.status, actor });
      events.push(...written);
      return 'written';
    },
  };
  /** Writes `value` straight into production (as before it was protected) or staging. */
  const seed = async (name: string, value: string, place = 'production') => {
    const wasProtected = environment.protected;
    environment = { ...environment, protected: false };
    await putSecret(secrets, { ...by('u-1'), environment: place }, name, { value });
    environment = { ...environment, protected: wasProtected };
  };
  const currentValue = async (name: string) => (await getSecret(secrets, by('u-1'), name, undefined)).value;
  const setEnvironment = (fields: Partial<EnvironmentRecord>) => {
    environment = { ...environment, ...fields };
  };
  return {
    changes: store,
    crypto,
    secrets,
    heads,
    requests,
    proposed,
    slots,
    events,
    hooks,
    attempts,
    updates,
    seed,
    currentValue,
    setEnvironment,
  };
};

/** The one error `act` rejects with. */
const rejection = (act: Promise<unknown>) =>
  act.then(
    () => {
      throw new Error('it was not refused');
    },
    (error: unknown) => error,
  );

describe('propose', () => {
  it('stores an open request of the author’s, its value sealed for the request alone, and writes no secret', async () => {
    const world = fakeWorld();

    const shown = await proposeChange(world, by('u-3'), { set: { API_KEY: 'new' }, note: 'rotate' });

    expect(shown).toEqual({
      id: expect.stringMatching(/^chg_[0-9A-Za-z]{16}$/),
      environment: 'production',
      status: 'open',
      author: { userId: 'u-3', email: 'cy@example.com' },
      note: 'rotate',
      changes: [{ name: 'API_KEY', action: 'set', fromVersion: 0, restoreVersion: null }],
      approvals: [],
      approvalsNeeded: 1,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + CHANGE_REQUEST_DAYS * DAY_MS).toISOString(),
      closedBy: null,
      closedAt: null,
      forcedReason: null,
    });
    expect(world.requests.get(shown.id)).toMatchObject({ environmentLife: 'L1', revision: 1 });
    const [sealed] = world.proposed.get(shown.id) ?? [];
    expect(sealed?.name).toBe('API_KEY');
    expect(Buffer.from(sealed?.ciphertext ?? []).includes(Buffer.from('new'))).toBe(false);
    expect(world.heads.size).toBe(0);
    expect(world.events).toEqual([
      eventLike('change_request.created', {
        target: expect.objectContaining({ projectId, changeRequestId: shown.id }),
        details: expect.objectContaining({
          environment: 'production',
          note: 'rotate',
          secrets: [{ name: 'API_KEY', version: 0 }],
        }),
      }),
    ]);
  });

  it('proposes deletes and restores from the versions live now, and sets without a note', async () => {
    const world = fakeWorld();
    await world.seed('A', 'a1');
    await world.seed('A', 'a2');
    await world.seed('B', 'b1');

    const shown = await proposeChange(world, by('u-3'), { delete: ['B'], restore: [{ name: 'A', version: 1 }] });

    expect(shown.changes).toEqual([
      { name: 'B', action: 'delete', fromVersion: 1, restoreVersion: null },
      { name: 'A', action: 'restore', fromVersion: 2, restoreVersion: 1 },
    ]);
    expect(shown.note).toBeNull();
    expect(world.proposed.get(shown.id)).toEqual([]);
    expect(world.events.at(-1)).toEqual(
      eventLike('change_request.created', { details: expect.objectContaining({ note: null }) }),
    );
  });

  it('refuses a stated version that is not the live one, a delete of no secret, and a restore of no earlier version', async () => {
    const world = fakeWorld();
    await world.seed('A', 'a1');

    expect(await rejection(proposeChange(world, by('u-3'), { set: { A: 'x' }, expectedVersions: { A: 2 } }))).toEqual(
      new ConflictError(ErrorText.secretConflict),
    );
    expect(await rejection(proposeChange(world, by('u-3'), { delete: ['B'] }))).toEqual(
      new NotFoundError(ErrorText.secretNotFound),
    );
    expect(await rejection(proposeChange(world, by('u-3'), { restore: [{ name: 'B', version: 1 }] }))).toEqual(
      new NotFoundError(ErrorText.secretNotFound),
    );
    expect(await rejection(proposeChange(world, by('u-3'), { restore: [{ name: 'A', version: 1 }] }))).toEqual(
      new NotFoundError(ErrorText.secretVersionNotFound),
    );
    expect(world.requests.size).toBe(0);
  });

  it('takes a stated version that is the live one', async () => {
    const world = fakeWorld();
    await world.seed('A', 'a1');

    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' }, expectedVersions: { A: 1 } });

    expect(shown.changes).toEqual([{ name: 'A', action: 'set', fromVersion: 1, restoreVersion: null }]);
  });

  it(`holds an environment to ${MAX_OPEN_CHANGE_REQUESTS} open requests, freeing the expired ones`, async () => {
    const world = fakeWorld();
    const live = now.getTime() + DAY_MS;
    const slots = Object.fromEntries(
      Array.from({ length: MAX_OPEN_CHANGE_REQUESTS }, (_, i) => [`chg_${i}`, i === 0 ? now.getTime() : live]),
    );
    world.slots.stored = { version: 3, slots };

    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });

    expect(Object.keys(world.slots.stored?.slots ?? {})).not.toContain('chg_0');
    expect(world.slots.stored?.slots[shown.id]).toBe(now.getTime() + CHANGE_REQUEST_DAYS * DAY_MS);
    expect(await rejection(proposeChange(world, by('u-3'), { set: { B: 'y' } }))).toEqual(
      new ConflictError(ErrorText.changeRequestLimit),
    );
  });

  it('lets no one below write access propose', async () => {
    const world = fakeWorld({ defaultAccess: 'read' });

    expect(await rejection(proposeChange(world, by('u-3'), { set: { A: 'x' } }))).toEqual(
      new ForbiddenError(ErrorText.environmentAccess),
    );
    expect(world.requests.size).toBe(0);
  });
});

describe('reading change requests', () => {
  it('lists this life’s requests newest first, by status when asked, an open one past its expiry as expired', async () => {
    const world = fakeWorld();
    const older = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    const newer = await proposeChange(world, by('u-3', 1), { set: { B: 'y' } });
    await closeChangeRequest(world, by('u-3', 1), newer.id, 'cancelled');
    const request = world.requests.get(older.id) as ChangeRequestRecord;
    world.requests.set('chg_other_life', { ...request, id: 'chg_other_life', environmentLife: 'L0' });

    expect((await listChangeRequests(world, by('u-4', 2), undefined)).map((entry) => [entry.id, entry.status])).toEqual(
      [
        [newer.id, 'cancelled'],
        [older.id, 'open'],
      ],
    );
    expect((await listChangeRequests(world, by('u-4', 2), 'cancelled')).map((entry) => entry.id)).toEqual([newer.id]);
    const late = by('u-4', CHANGE_REQUEST_DAYS);
    expect((await listChangeRequests(world, late, 'expired')).map((entry) => entry.id)).toEqual([older.id]);
    expect(await listChangeRequests(world, late, 'open')).toEqual([]);
    expect((await getChangeRequest(world, late, older.id)).status).toBe('expired');
    // A closed request stays as it was closed, past its expiry too.
    expect((await getChangeRequest(world, by('u-4', CHANGE_REQUEST_DAYS + 2), newer.id)).status).toBe('cancelled');
  });

  it('lists by time of creation, newest first, and requests made at the same time by id, the greater first', async () => {
    const world = fakeWorld();
    const made = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    const request = world.requests.get(made.id) as ChangeRequestRecord;
    world.requests.clear();
    for (const [id, createdAt] of [
      ['chg_a', '2026-11-25T12:00:02.000Z'],
      ['chg_c', '2026-11-25T12:00:01.000Z'],
      ['chg_b', '2026-11-25T12:00:01.000Z'],
    ] as const) {
      world.requests.set(id, { ...request, id, createdAt });
    }

    expect((await listChangeRequests(world, by('u-4'), undefined)).map((entry) => entry.id)).toEqual([
      'chg_a',
      'chg_c',
      'chg_b',
    ]);
  });

  it('answers 404 for a request of another life of the environment, or none', async () => {
    const world = fakeWorld();
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    world.setEnvironment({ life: 'L2' });

    for (const id of [shown.id, 'chg_none']) {
      expect(await rejection(getChangeRequest(world, by('u-4'), id))).toEqual(
        new NotFoundError(ErrorText.changeRequestNotFound),
      );
      expect(await rejection(changeRequestValues(world, by('u-4'), id))).toEqual(
        new NotFoundError(ErrorText.changeRequestNotFound),
      );
    }
  });

  it('answers the proposed values to a reader, recording the read', async () => {
    const world = fakeWorld();
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x', B: 'y' } });

    expect(await changeRequestValues(world, by('u-4'), shown.id)).toEqual({ A: 'x', B: 'y' });
    expect(world.events.at(-1)).toEqual(
      eventLike('secret.read', {
        target: expect.objectContaining({ projectId, changeRequestId: shown.id }),
        details: expect.objectContaining({
          secrets: [
            { name: 'A', version: 0 },
            { name: 'B', version: 0 },
          ],
        }),
      }),
    );
  });

  it('answers a request that proposes only deletes no values, and records no read', async () => {
    const world = fakeWorld();
    await world.seed('A', 'a1');
    const shown = await proposeChange(world, by('u-3'), { delete: ['A'] });
    const recorded = world.events.length;

    expect(await changeRequestValues(world, by('u-4'), shown.id)).toEqual({});
    expect(world.events).toHaveLength(recorded);
  });
});

describe('approve', () => {
  it('applies a request at its last approval: the values written as its author’s, the request closed with both events', async () => {
    const world = fakeWorld();
    await world.seed('OLD', 'o1');
    const shown = await proposeChange(world, by('u-3'), { set: { API_KEY: 'new' }, delete: ['OLD'] });

    const applied = await approveChangeRequest(world, by('u-2'), shown.id);

    expect(applied).toMatchObject({
      status: 'applied',
      approvals: [{ userId: 'u-2', email: 'bob@example.com', at: by('u-2').now.toISOString() }],
      closedBy: { userId: 'u-2', email: 'bob@example.com' },
      closedAt: by('u-2').now.toISOString(),
    });
    expect(world.events.slice(-2)).toEqual([
      eventLike('change_request.approved', { target: expect.objectContaining({ changeRequestId: shown.id }) }),
      eventLike('change_request.applied', {
        details: expect.objectContaining({
          secrets: [
            { name: 'API_KEY', version: 1 },
            { name: 'OLD', version: 2 },
          ],
        }),
      }),
    ]);
    expect(world.heads.get('API_KEY')?.updatedBy).toEqual({ userId: 'u-3', email: 'cy@example.com' });
    expect(world.heads.get('OLD')?.deletedAt).toBeDefined();
    expect(world.requests.get(shown.id)).toMatchObject({ status: 'applied', revision: 2 });
    expect(await world.currentValue('API_KEY')).toBe('new');
  });

  it('restores a version’s value when applied', async () => {
    const world = fakeWorld();
    await world.seed('A', 'a1');
    await world.seed('A', 'a2');
    const shown = await proposeChange(world, by('u-3'), { restore: [{ name: 'A', version: 1 }] });

    await approveChangeRequest(world, by('u-1'), shown.id);

    expect(await world.currentValue('A')).toBe('a1');
  });

  it('keeps a request open until it has the environment’s number of approvals, counting each approver once', async () => {
    const world = fakeWorld({ approvals: 2 });
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });

    const once = await approveChangeRequest(world, by('u-2'), shown.id);
    const again = await approveChangeRequest(world, by('u-2'), shown.id);

    expect([once.status, once.approvals.length, once.approvalsNeeded]).toEqual(['open', 1, 2]);
    expect(again).toEqual(once);
    expect(world.heads.size).toBe(0);
    expect((await approveChangeRequest(world, by('u-1'), shown.id)).status).toBe('applied');
    expect(await world.currentValue('A')).toBe('x');
  });

  it('lets neither its author nor a plain member approve', async () => {
    const world = fakeWorld();
    const byAdmin = await proposeChange(world, by('u-2'), { set: { A: 'x' } });
    const byMember = await proposeChange(world, by('u-3'), { set: { B: 'y' } });

    expect(await rejection(approveChangeRequest(world, by('u-2'), byAdmin.id))).toEqual(
      new ForbiddenError(ErrorText.ownApproval),
    );
    expect(await rejection(approveChangeRequest(world, by('u-4'), byMember.id))).toEqual(
      new ForbiddenError(ErrorText.projectRole),
    );
    expect(world.heads.size).toBe(0);
  });

  it('refuses a request that is no longer open, or has expired', async () => {
    const world = fakeWorld();
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });

    expect(await rejection(approveChangeRequest(world, by('u-1', CHANGE_REQUEST_DAYS), shown.id))).toEqual(
      new ConflictError(ErrorText.changeRequestNotOpen),
    );
    await approveChangeRequest(world, by('u-1'), shown.id);
    expect(await rejection(approveChangeRequest(world, by('u-2'), shown.id))).toEqual(
      new ConflictError(ErrorText.changeRequestNotOpen),
    );
  });

  it('closes as conflicted, writing nothing, a request whose secret moved since it was proposed', async () => {
    const world = fakeWorld();
    await world.seed('A', 'a1');
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    await world.seed('A', 'a2');

    expect(await rejection(approveChangeRequest(world, by('u-1'), shown.id))).toEqual(
      new ConflictError(ErrorText.changeRequestOutOfDate),
    );
    expect(world.events.at(-1)).toEqual(eventLike('change_request.conflicted'));
    expect(world.requests.get(shown.id)).toMatchObject({
      status: 'conflicted',
      closedBy: { userId: 'u-1', email: 'ada@example.com' },
      revision: 2,
    });
    expect(await world.currentValue('A')).toBe('a2');
  });
});

describe('force', () => {
  it('lets the owner apply a request without its approvals, with the reason recorded', async () => {
    const world = fakeWorld({ approvals: 2 });
    const shown = await proposeChange(world, by('u-1'), { set: { A: 'x' } });

    const forced = await forceChangeRequest(world, by('u-1'), shown.id, 'outage');

    expect(forced).toMatchObject({ status: 'applied', forcedReason: 'outage', approvals: [] });
    expect(world.events.slice(-2)).toEqual([
      eventLike('change_request.forced', { details: expect.objectContaining({ note: 'outage' }) }),
      eventLike('change_request.applied'),
    ]);
    expect(await world.currentValue('A')).toBe('x');
  });

  it('lets no admin or member force', async () => {
    const world = fakeWorld();
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });

    for (const userId of ['u-2', 'u-3']) {
      expect(await rejection(forceChangeRequest(world, by(userId), shown.id, 'why'))).toEqual(
        new ForbiddenError(ErrorText.projectRole),
      );
    }
    expect(world.heads.size).toBe(0);
  });
});

describe('close', () => {
  it('lets an owner or admin reject a request, and its author alone cancel it', async () => {
    const world = fakeWorld();
    const first = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    const second = await proposeChange(world, by('u-3'), { set: { B: 'y' } });

    expect(await rejection(closeChangeRequest(world, by('u-4'), first.id, 'rejected'))).toEqual(
      new ForbiddenError(ErrorText.projectRole),
    );
    expect(await rejection(closeChangeRequest(world, by('u-1'), second.id, 'cancelled'))).toEqual(
      new ForbiddenError(ErrorText.notAuthor),
    );
    const rejected = await closeChangeRequest(world, by('u-2'), first.id, 'rejected');
    const cancelled = await closeChangeRequest(world, by('u-3'), second.id, 'cancelled');

    expect([rejected.status, rejected.closedBy]).toEqual(['rejected', { userId: 'u-2', email: 'bob@example.com' }]);
    expect([cancelled.status, cancelled.closedBy]).toEqual(['cancelled', { userId: 'u-3', email: 'cy@example.com' }]);
    expect(world.events.slice(-2)).toEqual([
      eventLike('change_request.rejected', { target: expect.objectContaining({ changeRequestId: first.id }) }),
      eventLike('change_request.cancelled', { target: expect.objectContaining({ changeRequestId: second.id }) }),
    ]);
    expect(world.heads.size).toBe(0);
  });
});

describe('promote', () => {
  it('into a protected environment proposes the source’s values, noting where they come from', async () => {
    const world = fakeWorld();
    await world.seed('A', 'from-staging', 'staging');
    await world.seed('A', 'old');

    const promoted = await promote(
      world,
      { caller: session, origin, now, projectId },
      { from: 'staging', to: 'production', names: ['A'], expectedVersions: { A: 1 } },
    );

    expect(promoted).toEqual({
      proposed: expect.objectContaining({
        status: 'open',
        note: 'Promoted from staging',
        changes: [{ name: 'A', action: 'set', fromVersion: 1, restoreVersion: null }],
      }),
    });
    const id = 'proposed' in promoted ? promoted.proposed.id : '';
    expect(await changeRequestValues(world, by('u-1'), id)).toEqual({ A: 'from-staging' });
    expect(await world.currentValue('A')).toBe('old');
  });

  it('keeps the caller’s note, and holds the proposal to the versions the caller expects', async () => {
    const world = fakeWorld();
    await world.seed('A', 'from-staging', 'staging');
    const at = { caller: session, origin, now, projectId };

    const promoted = await promote(world, at, { from: 'staging', to: 'production', names: ['A'], note: 'release 7' });

    expect('proposed' in promoted && promoted.proposed.note).toBe('release 7');
    expect(
      await rejection(
        promote(world, at, { from: 'staging', to: 'production', names: ['A'], expectedVersions: { A: 3 } }),
      ),
    ).toEqual(new ConflictError(ErrorText.secretConflict));
  });
});

describe('what a proposal is judged against', () => {
  it('proposes from version 0 a secret deleted, or written in an earlier life of the environment, and deletes neither', async () => {
    const world = fakeWorld();
    await world.seed('OLD', 'o1');
    await world.seed('OLD', 'o2');
    world.setEnvironment({ protected: false, life: 'L2' });
    await world.seed('GONE', 'g1');
    await deleteSecret(world.secrets, by('u-1'), 'GONE');
    world.setEnvironment({ protected: true });

    const shown = await proposeChange(world, by('u-3'), { set: { GONE: 'x', OLD: 'y' } });

    expect(shown.changes.map((change) => [change.name, change.fromVersion])).toEqual([
      ['GONE', 0],
      ['OLD', 0],
    ]);
    for (const name of ['GONE', 'OLD']) {
      expect(await rejection(proposeChange(world, by('u-3'), { delete: [name] }))).toEqual(
        new NotFoundError(ErrorText.secretNotFound),
      );
    }
    expect(await rejection(proposeChange(world, by('u-3'), { restore: [{ name: 'OLD', version: 1 }] }))).toEqual(
      new NotFoundError(ErrorText.secretNotFound),
    );
  });

  it('seals a proposal under the project’s data key when it has one', async () => {
    const world = fakeWorld();
    await world.seed('A', 'a1');

    const shown = await proposeChange(world, by('u-3'), { set: { B: 'b' } });

    expect(await changeRequestValues(world, by('u-4'), shown.id)).toEqual({ B: 'b' });
    expect(world.attempts.creates).toBe(1);
  });

  it('opens no proposed value moved to another request', async () => {
    const world = fakeWorld();
    const first = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    const second = await proposeChange(world, by('u-3'), { set: { A: 'y' } });
    world.proposed.set(second.id, world.proposed.get(first.id) ?? []);

    expect(await rejection(changeRequestValues(world, by('u-4'), second.id))).toBeInstanceOf(DecryptionError);
  });
});

describe('racing writers', () => {
  it('proposes again while other proposals take the slots first, eight times at most, then 503', async () => {
    const world = fakeWorld();
    world.hooks.creates.push(...Array.from({ length: 7 }, () => 'changed' as const));

    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });

    expect(world.attempts.creates).toBe(8);
    expect(world.requests.get(shown.id)?.status).toBe('open');
    const busy = fakeWorld();
    busy.hooks.creates.push(...Array.from({ length: 8 }, () => 'changed' as const));
    expect(await rejection(proposeChange(busy, by('u-3'), { set: { A: 'x' } }))).toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect([busy.attempts.creates, busy.requests.size]).toEqual([8, 0]);
  });

  it('reads a request again when it moved under an approval, eight times at most, then 503', async () => {
    const world = fakeWorld({ approvals: 2 });
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    world.hooks.updates.push(...Array.from({ length: 7 }, () => 'requestChanged' as const));

    const approved = await approveChangeRequest(world, by('u-2'), shown.id);

    expect([approved.status, approved.approvals.length]).toEqual(['open', 1]);
    const other = await proposeChange(world, by('u-3'), { set: { B: 'y' } });
    world.hooks.updates.push(...Array.from({ length: 8 }, () => 'requestChanged' as const));
    expect(await rejection(approveChangeRequest(world, by('u-2'), other.id))).toBeInstanceOf(ServiceUnavailableError);
    expect(world.requests.get(other.id)?.approvals).toEqual([]);
  });

  it('records an approval short of the number needed as the approver’s, a manager’s step, moving the request’s revision', async () => {
    const world = fakeWorld({ approvals: 2 });
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });

    await approveChangeRequest(world, by('u-2'), shown.id);

    expect(world.requests.get(shown.id)?.revision).toBe(2);
    expect(world.updates).toEqual([{ status: 'open', actor: { userId: 'u-2', byManager: true } }]);
    expect(world.events.at(-1)).toEqual(
      eventLike('change_request.approved', { target: expect.objectContaining({ changeRequestId: shown.id }) }),
    );
  });

  it('refuses an approval or a rejection the store refuses, as the manager no longer manages the project', async () => {
    const world = fakeWorld({ approvals: 2 });
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    world.hooks.updates.push('refused');

    expect(await rejection(approveChangeRequest(world, by('u-2'), shown.id))).toEqual(
      new ForbiddenError(ErrorText.projectRole),
    );
    world.hooks.updates.push('refused');
    expect(await rejection(closeChangeRequest(world, by('u-2'), shown.id, 'rejected'))).toEqual(
      new ForbiddenError(ErrorText.projectRole),
    );
    expect(world.requests.get(shown.id)).toMatchObject({ status: 'open', approvals: [] });
  });

  it('marks a request conflicted as whoever applied it, no manager check, reading it again if it moved', async () => {
    const world = fakeWorld();
    await world.seed('A', 'a1');
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    await world.seed('A', 'a2');
    world.hooks.updates.push('requestChanged');

    expect(await rejection(approveChangeRequest(world, by('u-1'), shown.id))).toEqual(
      new ConflictError(ErrorText.changeRequestOutOfDate),
    );
    expect(world.updates).toEqual([{ status: 'conflicted', actor: { userId: 'u-1', byManager: false } }]);
    expect(world.requests.get(shown.id)?.status).toBe('conflicted');
  });

  it('reads a request again when it was cancelled while its last approval was being applied: 409, nothing written', async () => {
    const world = fakeWorld();
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    const store = world.secrets.secrets;
    const writeSecrets = store.writeSecrets;
    store.writeSecrets = async (change) => {
      store.writeSecrets = writeSecrets;
      await closeChangeRequest(world, by('u-3'), shown.id, 'cancelled');
      return writeSecrets(change);
    };

    expect(await rejection(approveChangeRequest(world, by('u-2'), shown.id))).toEqual(
      new ConflictError(ErrorText.changeRequestNotOpen),
    );
    expect([world.heads.has('A'), world.requests.get(shown.id)?.status]).toEqual([false, 'cancelled']);
  });

  it('leaves a request open when its write fails for another reason than a moved secret', async () => {
    const world = fakeWorld();
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    world.hooks.writes.push('limit');

    expect(await rejection(approveChangeRequest(world, by('u-1'), shown.id))).toEqual(
      new ConflictError(ErrorText.secretLimit),
    );
    expect(world.requests.get(shown.id)).toMatchObject({ status: 'open', approvals: [], revision: 1 });
    expect(world.updates).toEqual([]);
  });

  it('reads a request again when it moved under a rejection, and closes it then', async () => {
    const world = fakeWorld();
    const shown = await proposeChange(world, by('u-3'), { set: { A: 'x' } });
    world.hooks.updates.push('requestChanged');

    const rejected = await closeChangeRequest(world, by('u-2'), shown.id, 'rejected');

    expect(rejected.status).toBe('rejected');
    expect(world.requests.get(shown.id)?.status).toBe('rejected');
  });

  it('moves the revision of a request it forces, rejects or cancels', async () => {
    const world = fakeWorld();
    const forced = await proposeChange(world, by('u-1'), { set: { A: 'x' } });
    const rejected = await proposeChange(world, by('u-3'), { set: { B: 'y' } });
    const cancelled = await proposeChange(world, by('u-3'), { set: { C: 'z' } });

    await forceChangeRequest(world, by('u-1'), forced.id, 'outage');
    await closeChangeRequest(world, by('u-2'), rejected.id, 'rejected');
    await closeChangeRequest(world, by('u-3'), cancelled.id, 'cancelled');

    expect([forced.id, rejected.id, cancelled.id].map((id) => world.requests.get(id)?.revision)).toEqual([2, 2, 2]);
    expect(world.updates).toEqual([
      { status: 'rejected', actor: { userId: 'u-2', byManager: true } },
      { status: 'cancelled', actor: { userId: 'u-3', byManager: false } },
    ]);
  });
});
