import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { DELETED_SECRET_DAYS, MAX_EXPORT_BYTES, MAX_SECRETS } from '@contract/limits';
import { sealBytes } from '@lambdas/crypto/aes-gcm';
import { additionalData, dataKeys, decryptValue, encryptValue } from '@lambdas/crypto/envelope';
import { localKeyWrapper } from '@lambdas/crypto/local-key-wrapper';
import { sameDigest, valueDigest } from '@lambdas/crypto/value-digest';
import { DecryptionError, NotFoundError, ServiceUnavailableError } from '@lambdas/domain/errors';
import type {
  EnvironmentRecord,
  ProjectRecord,
  SecretHeadRecord,
  SecretVersionRecord,
  SecretWriteOutcome,
  SecretWrites,
} from '@lambdas/domain/records';
import { MAX_REFERENCE_DEPTH } from '@lambdas/domain/references';
import {
  changeSecrets,
  compareEnvironments,
  deleteSecret,
  exportBytesOf,
  exportSecrets,
  getSecret,
  type InEnvironment,
  type InProject,
  listSecrets,
  listVersions,
  promoteSecrets,
  putSecret,
  restoreSecret,
  type SecretCrypto,
  type SecretStore,
} from '@lambdas/use-cases/secrets';
import { eventLike, memberRecord, now, origin, session } from './fakes';

const projectId = 'prj_a';
const DAY_MS = 24 * 60 * 60 * 1000;
const ada = { userId: 'u-1', email: 'ada@example.com' };

const environment = (name: string, fields: Partial<EnvironmentRecord> = {}): EnvironmentRecord => ({
  projectId,
  name,
  createdAt: '2026-11-01T00:00:00.000Z',
  secretCount: 0,
  exportBytes: 0,
  life: `life-of-${name}`,
  ...fields,
});

const member = (userId: string) => memberRecord(userId, 'member', projectId);

/** A request of the session in `production` of the project, `days` after `now`. */
const at = (days = 0, fields: Partial<InEnvironment> = {}): InEnvironment => ({
  caller: session,
  origin,
  now: new Date(now.getTime() + days * DAY_MS),
  projectId,
  environment: 'production',
  ...fields,
});

/**
 * One project's secrets in memory; `writeSecrets` checks what the repository's transaction checks (the
 * member, the environment's life and limits, each head at the version read, the project's first key).
 * `interfere` runs before each write, as another writer between a read and a write would.
 */
const fakeSecrets = (environments: EnvironmentRecord[] = [environment('production')]) => {
  const members = new Set(['u-1']);
  const places = new Map(environments.map((entry) => [entry.name, entry]));
  const project: { record: ProjectRecord } = {
    record: { projectId, name: 'Apollo', createdAt: '2026-11-01T00:00:00.000Z' },
  };
  const heads = new Map<string, SecretHeadRecord>();
  const versions = new Map<string, SecretVersionRecord>();
  const expiries = new Map<string, number>();
  const events: AuditEvent[] = [];
  const reads: AuditEvent[] = [];
  const writes: SecretWrites[] = [];
  const hooks: {
    interfere?: () => SecretWriteOutcome | undefined;
    failRead?: boolean;
    beforeHeadValues?: () => void;
  } = {};
  const headValueReads: (readonly string[])[] = [];
  /**
   * Other projects, as only references read them: their environments by `placeKey`, their heads by
   * `targetKey`, and those of them the caller is a member of (of none, unless a test adds it), by id.
   */
  const elsewhere = new Map<string, EnvironmentRecord>();
  const elsewhereHeads = new Map<string, SecretHeadRecord>();
  const elsewhereProjects = new Map<string, ProjectRecord>();
  /** The environments whose heads were listed, a Query each. */
  const headListings: string[] = [];
  const headKey = (place: string, name: string) => `${place}/${name}`;
  const versionKey = (place: string, name: string, life: string, version: number) =>
    `${place}/${name}/${life}/${version}`;
  const mine = (id: string) => id === projectId;
  /** The heads of `names` in an environment that exist, by name, as a BatchGetItem finds them. */
  const headsOf = (id: string, place: string, names: readonly string[]) =>
    new Map(
      names.flatMap((name) => {
        const head = mine(id) ? heads.get(headKey(place, name)) : undefined;
        return head ? [[name, head] as const] : [];
      }),
    );
  const memberOf = (id: string, userId: string) => (mine(id) && members.has(userId) ? member(userId) : undefined);

  const store: SecretStore = {
    readSecretContext: async (id, userId, place, names, withProject) => ({
      member: memberOf(id, userId),
      environment: mine(id) ? places.get(place) : undefined,
      project: withProject && mine(id) ? project.record : undefined,
      heads: headsOf(id, place, names),
    }),
    readPairContext: async (id, userId, pair, names, withProject) => ({
      member: memberOf(id, userId),
      project: withProject && mine(id) ? project.record : undefined,
      from: { environment: mine(id) ? places.get(pair.from) : undefined, heads: headsOf(id, pair.from, names) },
      to: { environment: mine(id) ? places.get(pair.to) : undefined, heads: headsOf(id, pair.to, names) },
    }),
    readHeadValues: async (id, pair, names) => {
      headValueReads.push(names);
      hooks.beforeHeadValues?.();
      return {
        project: mine(id) ? project.record : undefined,
        from: headsOf(id, pair.from, names),
        to: headsOf(id, pair.to, names),
      };
    },
    readReferenced: async (userId, wanted) => ({
      members: new Map(
        wanted.projects.flatMap((id) =>
          memberOf(id, userId) || elsewhereProjects.has(id) ? [[id, memberRecord(userId, 'member', id)]] : [],
        ),
      ),
      projects: new Map(
        wanted.projects.flatMap((id) => {
          const found = mine(id) ? project.record : elsewhereProjects.get(id);
          return found ? [[id, found]] : [];
        }),
      ),
      environments: new Map(
        wanted.environments.flatMap((place) => {
          const found = mine(place.projectId)
            ? places.get(place.environment)
            : elsewhere.get(`${place.projectId}/${place.environment}`);
          return found ? [[`${place.projectId}/${place.environment}`, found]] : [];
        }),
      ),
      heads: new Map(
        wanted.heads.flatMap((target) => {
          const key = `${target.projectId}/${target.environment}/${target.name}`;
          const head = mine(target.projectId)
            ? heads.get(headKey(target.environment, target.name))
            : elsewhereHeads.get(key);
          return head ? [[key, head]] : [];
        }),
      ),
    }),
    getSecretVersion: async (_id, place, name, life, version) => versions.get(versionKey(place, name, life, version)),
    listSecretHeads: async (_id, place, withValues) => {
      headListings.push(place);
      return [...heads.values()]
        .filter((head) => head.environment === place)
        .map((head) => {
          if (withValues) return head;
          const { name, version, updatedAt, updatedBy, deletedAt, environmentLife, valueDigest: digest } = head;
          // The repository's projection: no value, no life, no export bytes; the value's digest.
          const listed = JSON.parse(
            JSON.stringify({ name, version, updatedAt, updatedBy, deletedAt, environmentLife }),
          ) as SecretHeadRecord;
          return digest === undefined ? listed : { ...listed, valueDigest: digest };
        });
    },
    listSecretVersions: async (_id, place, name, life) =>
      [...versions.entries()]
        .filter(([key]) => key.startsWith(`${place}/${name}/${life}/`))
        .map(([, { version, updatedAt, updatedBy, deleted }]) => ({ name, version, updatedAt, updatedBy, deleted }))
        .sort((a, b) => b.version - a.version),
    writeSecrets: async (change) => {
      writes.push(change);
      const interfered = hooks.interfere?.();
      if (interfered) return interfered;
      if (!members.has(change.userId)) return 'notMember';
      const place = places.get(change.environment);
      if (!place) return 'noEnvironment';
      if (place.life !== change.environmentLife) return 'changed';
      if (change.countDelta > 0 && place.secretCount + change.countDelta > MAX_SECRETS) return 'limit';
      if (change.bytesDelta > 0 && (place.exportBytes ?? 0) + change.bytesDelta > MAX_EXPORT_BYTES) return 'limit';
      for (const { head, readVersion, version } of change.writes) {
        const current = heads.get(headKey(head.environment, head.name));
        if (current?.version !== readVersion) return 'changed';
        if (versions.has(versionKey(head.environment, head.name, head.life, version.version))) return 'changed';
      }
      if (change.newDataKey !== undefined && project.record.dataKey !== undefined) return 'changed';
      places.set(change.environment, {
        ...place,
        secretCount: place.secretCount + change.countDelta,
        exportBytes: (place.exportBytes ?? 0) + change.bytesDelta,
        secretsRevision: (place.secretsRevision ?? 0) + 1,
      });
      for (const { head, version, event, expiresAt } of change.writes) {
        const key = versionKey(head.environment, head.name, head.life, version.version);
        heads.set(headKey(head.environment, head.name), head);
        versions.set(key, version);
        events.push(event);
        if (expiresAt !== undefined) expiries.set(key, expiresAt);
      }
      events.push(...(change.alsoRecorded ?? []));
      if (change.newDataKey) project.record = { ...project.record, dataKey: change.newDataKey };
      return 'written';
    },
    recordEvent: async (event, userId, id) => {
      if (hooks.failRead) throw new Error('DynamoDB is unavailable');
      expect([userId, id]).toEqual(['u-1', event.target.projectId]);
      reads.push(event);
    },
  };
  const crypto: SecretCrypto = {
    keys: dataKeys(localKeyWrapper()),
    encryptValue,
    decryptValue,
    digestValue: valueDigest,
    sameDigest,
  };
  const head = (name: string, place = 'production') => heads.get(headKey(place, name));
  const version = (name: string, life: string, number: number, place = 'production') =>
    versions.get(versionKey(place, name, life, number));
  return {
    secrets: store,
    members,
    places,
    project,
    heads,
    versions,
    expiries,
    events,
    reads,
    writes,
    hooks,
    headValueReads,
    headListings,
    elsewhere,
    elsewhereHeads,
    elsewhereProjects,
    head,
    version,
    headKey,
    versionKey,
    crypto,
  };
};

/** A project with `API_KEY` written twice (versions 1 and 2) in production. */
const withTwoVersions = async () => {
  const world = fakeSecrets();
  await putSecret(world, at(), 'API_KEY', { value: 'first' });
  await putSecret(world, at(), 'API_KEY', { value: 'second' });
  return world;
};

/** `sealed`'s ciphertext with one byte flipped, as a writer of the table could. */
const flipped = (sealed: Uint8Array | undefined): Uint8Array => {
  const bytes = Uint8Array.from(sealed ?? []);
  bytes[20] = (bytes[20] ?? 0) ^ 1;
  return bytes;
};

/** The `secret.read` of `secrets` in production, recorded at `when`. */
const readOf = (secrets: { name: string; version: number }[], when = now) =>
  eventLike('secret.read', {
    time: when.toISOString(),
    target: expect.objectContaining({ projectId }),
    details: expect.objectContaining({ environment: 'production', secrets }),
  });

describe('exportBytesOf', () => {
  it('counts the UTF-8 bytes of "NAME":"value", as JSON escapes them', () => {
    expect(exportBytesOf('A', 'é"')).toBe(Buffer.byteLength('"A":"é\\"",'));
    expect(exportBytesOf('A', 'é"')).toBe(11);
  });
});

describe('putSecret', () => {
  it('creates version 1, sealed, counted in its environment, and records secret.created', async () => {
    const world = fakeSecrets();
    const answer = await putSecret(world, at(), 'API_KEY', { value: 'sk_live_1' });
    expect(answer).toEqual({
      secret: { name: 'API_KEY', version: 1, updatedAt: now.toISOString(), updatedBy: ada },
      created: true,
    });
    expect(JSON.stringify([...world.heads.values(), ...world.versions.values()])).not.toContain('sk_live_1');
    expect(world.places.get('production')).toMatchObject({
      secretCount: 1,
      exportBytes: exportBytesOf('API_KEY', 'sk_live_1'),
    });
    expect(world.head('API_KEY')).toMatchObject({ environmentLife: 'life-of-production', version: 1 });
    expect(world.events).toEqual([
      eventLike('secret.created', {
        target: expect.objectContaining({ projectId }),
        details: expect.objectContaining({ environment: 'production', secrets: [{ name: 'API_KEY', version: 1 }] }),
      }),
    ]);
  });

  it('stores the value’s digest under the project’s data key on its head only, and none with a delete', async () => {
    const world = fakeSecrets();
    await putSecret(world, at(), 'API_KEY', { value: 'sk_live_1' });
    const dataKey = (await world.crypto.keys.dataKeyFor(projectId, world.project.record.dataKey)).plaintext;
    const digest = valueDigest(dataKey, 'sk_live_1');
    const head = world.head('API_KEY');
    expect(Buffer.from(head?.valueDigest ?? []).equals(digest)).toBe(true);
    expect(world.version('API_KEY', head?.life ?? '', 1)).not.toHaveProperty('valueDigest');
    await deleteSecret(world, at(), 'API_KEY');
    expect(world.head('API_KEY')?.valueDigest).toBeUndefined();
    expect(world.version('API_KEY', head?.life ?? '', 2)).not.toHaveProperty('valueDigest');
  });

  it('stores the project’s new data key with its first value only, and seals every value under it', async () => {
    const world = fakeSecrets();
    await putSecret(world, at(), 'A', { value: 'one' });
    const stored = world.project.record.dataKey;
    expect(stored).toBeDefined();
    expect(world.writes[0]?.newDataKey).toEqual(stored);
    await putSecret(world, at(), 'B', { value: 'two' });
    expect(world.writes[1]?.newDataKey).toBeUndefined();
    expect(world.project.record.dataKey).toBe(stored);
    expect((await exportSecrets(world, at())).data).toEqual({ A: 'one', B: 'two' });
  });

  it('writes the next version as an update, answering created: false and recording secret.updated', async () => {
    const world = await withTwoVersions();
    expect(world.head('API_KEY')).toMatchObject({ version: 2 });
    expect(world.places.get('production')).toMatchObject({
      secretCount: 1,
      exportBytes: exportBytesOf('API_KEY', 'second'),
    });
    expect(world.events.map((event) => event.type)).toEqual(['secret.created', 'secret.updated']);
    const answer = await putSecret(world, at(1), 'API_KEY', { value: 'third' });
    expect(answer).toEqual({
      secret: { name: 'API_KEY', version: 3, updatedAt: at(1).now.toISOString(), updatedBy: ada },
      created: false,
    });
    expect((await getSecret(world, at(), 'API_KEY', undefined)).value).toBe('third');
  });

  it('writes at the expected version, and refuses any other with 409 Secret version conflict, writing nothing', async () => {
    const world = await withTwoVersions();
    await expect(putSecret(world, at(), 'API_KEY', { value: 'stale', expectedVersion: 1 })).rejects.toMatchObject({
      status: 409,
      message: ErrorText.secretConflict,
    });
    await expect(putSecret(world, at(), 'NEW', { value: 'x', expectedVersion: 1 })).rejects.toMatchObject({
      status: 409,
      message: ErrorText.secretConflict,
    });
    expect(world.writes).toHaveLength(2);
    expect((await putSecret(world, at(), 'API_KEY', { value: 'third', expectedVersion: 2 })).secret.version).toBe(3);
  });

  it('takes expectedVersion 0 as “not live”: it creates, and refuses with 409 when the secret exists', async () => {
    const world = fakeSecrets();
    expect(await putSecret(world, at(), 'API_KEY', { value: 'one', expectedVersion: 0 })).toMatchObject({
      created: true,
    });
    await expect(putSecret(world, at(), 'API_KEY', { value: 'two', expectedVersion: 0 })).rejects.toMatchObject({
      status: 409,
    });
    await deleteSecret(world, at(), 'API_KEY');
    expect(await putSecret(world, at(), 'API_KEY', { value: 'three', expectedVersion: 0 })).toEqual({
      secret: expect.objectContaining({ version: 3 }),
      created: true,
    });
  });

  it('writes a name deleted within 30 days as its next version, and one deleted longer ago as a new life from 1', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(), 'API_KEY');
    const life = world.head('API_KEY')?.life;
    const again = await putSecret(world, at(DELETED_SECRET_DAYS - 0.001), 'API_KEY', { value: 'back' });
    expect(again).toMatchObject({ secret: { version: 4 }, created: true });
    expect(world.head('API_KEY')?.life).toBe(life);
    await deleteSecret(world, at(DELETED_SECRET_DAYS), 'API_KEY');
    const anew = await putSecret(world, at(2 * DELETED_SECRET_DAYS), 'API_KEY', { value: 'new life' });
    expect(anew).toMatchObject({ secret: { version: 1 }, created: true });
    expect(world.head('API_KEY')?.life).not.toBe(life);
    expect(world.events.at(-1)?.type).toBe('secret.created');
    expect(await listVersions(world, at(2 * DELETED_SECRET_DAYS), 'API_KEY')).toEqual([
      { version: 1, updatedAt: at(2 * DELETED_SECRET_DAYS).now.toISOString(), updatedBy: ada, deleted: false },
    ]);
  });

  it('starts a new secret over one its environment left in an earlier life, counting it as new', async () => {
    const world = fakeSecrets();
    await putSecret(world, at(), 'API_KEY', { value: 'old environment' });
    world.places.set('production', environment('production', { life: 'second-life', createdAt: now.toISOString() }));
    const answer = await putSecret(world, at(1), 'API_KEY', { value: 'new environment' });
    expect(answer).toMatchObject({ secret: { version: 1 }, created: true });
    expect(world.head('API_KEY')).toMatchObject({ environmentLife: 'second-life', version: 1 });
    expect(world.places.get('production')).toMatchObject({
      secretCount: 1,
      exportBytes: exportBytesOf('API_KEY', 'new environment'),
    });
    expect((await getSecret(world, at(1), 'API_KEY', undefined)).value).toBe('new environment');
  });

  it('writes no environment life on a head of an environment made before lives', async () => {
    const world = fakeSecrets([environment('production', { life: undefined })]);
    await putSecret(world, at(), 'API_KEY', { value: 'one' });
    expect(world.head('API_KEY')).not.toHaveProperty('environmentLife');
    expect(world.writes[0]?.environmentLife).toBeUndefined();
  });

  it(`refuses a new secret in an environment holding ${MAX_SECRETS} with 409 Secret limit reached, but updates one there`, async () => {
    const world = await withTwoVersions();
    const full = world.places.get('production');
    world.places.set('production', { ...(full as EnvironmentRecord), secretCount: MAX_SECRETS });
    await expect(putSecret(world, at(), 'ONE_MORE', { value: 'x' })).rejects.toMatchObject({
      status: 409,
      message: ErrorText.secretLimit,
    });
    expect(world.writes).toHaveLength(3);
    expect((await putSecret(world, at(), 'API_KEY', { value: 'third' })).secret.version).toBe(3);
  });

  it('refuses a value that would take the export past its bytes with 409, and takes a shorter one at the limit', async () => {
    const world = await withTwoVersions();
    const place = world.places.get('production') as EnvironmentRecord;
    world.places.set('production', { ...place, exportBytes: MAX_EXPORT_BYTES });
    await expect(putSecret(world, at(), 'API_KEY', { value: 'second!' })).rejects.toMatchObject({ status: 409 });
    await putSecret(world, at(), 'API_KEY', { value: 'short' });
    expect(world.places.get('production')?.exportBytes).toBe(MAX_EXPORT_BYTES - 1);
  });

  it('answers 404 to a stranger and for an unknown environment, writing nothing', async () => {
    const world = fakeSecrets();
    const stranger = { ...session, userId: 'u-9' };
    await expect(putSecret(world, at(0, { caller: stranger }), 'A', { value: 'x' })).rejects.toMatchObject({
      status: 404,
      message: ErrorText.projectNotFound,
    });
    await expect(putSecret(world, at(0, { environment: 'staging' }), 'A', { value: 'x' })).rejects.toMatchObject({
      status: 404,
      message: ErrorText.environmentNotFound,
    });
    expect(world.writes).toEqual([]);
  });

  it('reads again when another writer changed the secret first, and writes after theirs', async () => {
    const world = await withTwoVersions();
    let raced = false;
    world.hooks.interfere = () => {
      if (raced) return undefined;
      raced = true;
      const current = world.head('API_KEY') as SecretHeadRecord;
      world.heads.set(world.headKey('production', 'API_KEY'), { ...current, version: 3 });
      return undefined;
    };
    expect((await putSecret(world, at(), 'API_KEY', { value: 'mine' })).secret.version).toBe(4);
    expect(world.writes).toHaveLength(4);
  });

  it('answers 409, not a retry, when another writer changed a secret written at an expected version', async () => {
    const world = await withTwoVersions();
    world.hooks.interfere = () => {
      const current = world.head('API_KEY') as SecretHeadRecord;
      world.heads.set(world.headKey('production', 'API_KEY'), { ...current, version: 3 });
      world.hooks.interfere = undefined;
      return undefined;
    };
    await expect(putSecret(world, at(), 'API_KEY', { value: 'mine', expectedVersion: 2 })).rejects.toMatchObject({
      status: 409,
      message: ErrorText.secretConflict,
    });
  });

  describe('while other writers keep changing what it read', () => {
    beforeEach(() => {
      jest.useFakeTimers();
      // Each wait is then half its window.
      jest.spyOn(Math, 'random').mockReturnValue(0.5);
    });
    afterEach(() => {
      jest.useRealTimers();
      jest.restoreAllMocks();
    });

    /** What `promise` settled to once `ms` have passed (`'pending'` if it has not). */
    const outcomeAfter = async (promise: Promise<unknown>, ms: number) => {
      let outcome: unknown = 'pending';
      promise.then(
        (value) => {
          outcome = value;
        },
        (error: unknown) => {
          outcome = error;
        },
      );
      await jest.advanceTimersByTimeAsync(ms);
      return outcome;
    };

    it('gives up with 503 after 8 attempts, waiting within a window that doubles from 20 ms to 320 ms', async () => {
      const world = fakeSecrets();
      world.hooks.interfere = () => 'changed';
      const answer = putSecret(world, at(), 'A', { value: 'x' });
      // Half of 20 + 40 + 80 + 160 + 320 × 4 ms.
      expect(await outcomeAfter(answer, 789)).toBe('pending');
      expect(world.writes).toHaveLength(8);
      expect(await outcomeAfter(answer, 1)).toBeInstanceOf(ServiceUnavailableError);
      expect(world.heads.size).toBe(0);
    });

    it('answers 404 at once, without waiting to try again, when the caller left or the environment went before the write', async () => {
      const world = fakeSecrets();
      world.hooks.interfere = () => {
        world.members.delete('u-1');
        return undefined;
      };
      expect(await outcomeAfter(putSecret(world, at(), 'A', { value: 'x' }), 0)).toEqual(
        new NotFoundError(ErrorText.projectNotFound),
      );
      const other = fakeSecrets();
      other.hooks.interfere = () => {
        other.places.delete('production');
        return undefined;
      };
      expect(await outcomeAfter(putSecret(other, at(), 'A', { value: 'x' }), 0)).toEqual(
        new NotFoundError(ErrorText.environmentNotFound),
      );
    });

    it('tries again within 20 ms of its first attempt', async () => {
      const world = fakeSecrets();
      let attempts = 0;
      world.hooks.interfere = () => (++attempts === 1 ? 'changed' : undefined);
      const answer = putSecret(world, at(), 'A', { value: 'x' });
      await jest.advanceTimersByTimeAsync(9);
      expect(world.writes).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect((await answer).secret.version).toBe(1);
    });
  });
});

describe('writes into a protected environment', () => {
  it('refuses a put, delete, restore or change with 409 naming its change-request route, writing nothing', async () => {
    const world = await withTwoVersions();
    world.places.set('production', { ...(world.places.get('production') as EnvironmentRecord), protected: true });
    const before = world.writes.length;
    const refusal = {
      status: 409,
      message: ErrorText.environmentProtected,
      details: [
        {
          path: 'environment',
          message: `production is protected: propose the change with POST /api/v1/projects/${projectId}/environments/production/change-requests`,
        },
      ],
    };
    await expect(putSecret(world, at(), 'API_KEY', { value: 'third' })).rejects.toMatchObject(refusal);
    await expect(deleteSecret(world, at(), 'API_KEY')).rejects.toMatchObject(refusal);
    await expect(restoreSecret(world, at(), 'API_KEY', 1)).rejects.toMatchObject(refusal);
    await expect(changeSecrets(world, at(), { set: { NEW: 'x' } })).rejects.toMatchObject(refusal);
    expect(world.writes).toHaveLength(before);
    expect((await getSecret(world, at(), 'API_KEY', undefined)).value).toBe('second');
  });
});

describe('references', () => {
  const inStaging = at(0, { environment: 'staging' });
  /** Production's URL refers to staging's HOST. */
  const referring = async () => {
    const world = fakeSecrets([environment('production'), environment('staging')]);
    await putSecret(world, inStaging, 'HOST', { value: 'db' });
    await putSecret(world, at(), 'URL', { value: `x://\${staging.HOST}` });
    return world;
  };
  const stagingRead = eventLike('secret.read', {
    details: expect.objectContaining({ environment: 'staging', secrets: [{ name: 'HOST', version: 1 }] }),
  });

  it('resolves a reference into another environment, records the read there, and lists the references', async () => {
    const world = await referring();
    expect(await getSecret(world, at(), 'URL', undefined)).toMatchObject({
      value: 'x://db',
      references: [{ reference: `\${staging.HOST}`, projectId, environment: 'staging', name: 'HOST' }],
    });
    expect(world.reads).toHaveLength(2);
    expect(world.reads).toEqual(expect.arrayContaining([readOf([{ name: 'URL', version: 1 }]), stagingRead]));
  });

  it('answers the value as stored when raw, reading nothing else', async () => {
    const world = await referring();
    expect(await getSecret(world, at(), 'URL', undefined, true)).toMatchObject({ value: `x://\${staging.HOST}` });
    expect(await exportSecrets(world, at(), undefined, true)).toMatchObject({ data: { URL: `x://\${staging.HOST}` } });
    expect(world.reads).toEqual([readOf([{ name: 'URL', version: 1 }]), readOf([{ name: 'URL', version: 1 }])]);
  });

  it('refuses with 409 where the caller may not read, naming the secret and the reference, and records nothing', async () => {
    const world = await referring();
    world.places.set('staging', { ...(world.places.get('staging') as EnvironmentRecord), defaultAccess: 'none' });
    const refused = getSecret(world, at(), 'URL', undefined);
    await expect(refused).rejects.toMatchObject({
      status: 409,
      message: ErrorText.referenceUnresolved,
      details: [{ path: 'URL', message: `\${staging.HOST} names no secret this caller can read` }],
    });
    await expect(exportSecrets(world, at())).rejects.toMatchObject({ status: 409 });
    expect(world.reads).toEqual([]);
  });

  it('resolves a reference into another project of the caller’s, opened under that project’s key, its read recorded there', async () => {
    const world = fakeSecrets();
    const other = `prj_${'C'.repeat(16)}`;
    const place = { ...environment('production'), projectId: other };
    const key = await world.crypto.keys.dataKeyFor(other, undefined);
    const address = { projectId: other, environment: 'production', name: 'HOST', life: 'H1', version: 3 };
    world.elsewhere.set(`${other}/production`, place);
    world.elsewhereProjects.set(other, {
      projectId: other,
      name: 'Zeus',
      createdAt: now.toISOString(),
      dataKey: key.wrapped,
    });
    world.elsewhereHeads.set(`${other}/production/HOST`, {
      ...address,
      environmentLife: place.life,
      updatedAt: now.toISOString(),
      updatedBy: ada,
      exportBytes: 0,
      ...encryptValue(key.plaintext, { ...address, copy: 'head' }, 'db.zeus'),
    });
    await putSecret(world, at(), 'URL', { value: `x://\${${other}.production.HOST}` });

    expect((await getSecret(world, at(), 'URL', undefined)).value).toBe('x://db.zeus');
    expect(world.reads).toEqual(
      expect.arrayContaining([
        readOf([{ name: 'URL', version: 1 }]),
        eventLike('secret.read', {
          target: expect.objectContaining({ projectId: other }),
          details: expect.objectContaining({ environment: 'production', secrets: [{ name: 'HOST', version: 3 }] }),
        }),
      ]),
    );
    expect(world.reads).toHaveLength(2);
  });

  it('refuses with 409 a reference into a project the caller is no member of, or to an environment that does not exist', async () => {
    const world = await referring();
    const stranger = `prj_${'B'.repeat(16)}`;
    world.elsewhere.set(`${stranger}/production`, { ...environment('production'), projectId: stranger });
    for (const reference of [`\${${stranger}.production.HOST}`, `\${qa.HOST}`]) {
      await putSecret(world, at(), 'URL', { value: `x://${reference}` });
      await expect(getSecret(world, at(), 'URL', undefined)).rejects.toMatchObject({
        status: 409,
        message: ErrorText.referenceUnresolved,
        details: [{ path: 'URL', message: `${reference} names no secret this caller can read` }],
      });
    }
    expect(world.reads).toEqual([]);
  });

  it('resolves a reference to a secret of the same environment, recording both reads in one event', async () => {
    const world = await referring();
    await putSecret(world, at(), 'USER', { value: 'ada' });
    await putSecret(world, at(), 'LOGIN', { value: `\${USER}@\${URL}` });
    expect(await getSecret(world, at(), 'LOGIN', undefined)).toMatchObject({ value: 'ada@x://db' });
    expect(world.reads).toEqual(
      expect.arrayContaining([
        readOf([
          { name: 'LOGIN', version: 1 },
          { name: 'URL', version: 1 },
          { name: 'USER', version: 1 },
        ]),
        stagingRead,
      ]),
    );
    expect(world.reads).toHaveLength(2);
  });

  it('follows references level by level into further environments, recording each environment’s reads by name', async () => {
    const world = fakeSecrets([environment('production'), environment('staging'), environment('dev')]);
    const inDev = at(0, { environment: 'dev' });
    await putSecret(world, inDev, 'PORT', { value: '5432' });
    await putSecret(world, inDev, 'NAME', { value: 'db' });
    await putSecret(world, inStaging, 'HOST', { value: `\${dev.PORT}/\${dev.NAME}` });
    await putSecret(world, at(), 'URL', { value: `x://\${staging.HOST}` });
    expect(await getSecret(world, at(), 'URL', undefined)).toMatchObject({ value: 'x://5432/db' });
    const readIn = (place: string, secrets: { name: string; version: number }[]) =>
      eventLike('secret.read', { details: expect.objectContaining({ environment: place, secrets }) });
    expect(world.reads).toHaveLength(3);
    expect(world.reads).toEqual(
      expect.arrayContaining([
        readOf([{ name: 'URL', version: 1 }]),
        readIn('staging', [{ name: 'HOST', version: 1 }]),
        readIn('dev', [
          { name: 'NAME', version: 1 },
          { name: 'PORT', version: 1 },
        ]),
      ]),
    );
  });

  it(`resolves references nested ${MAX_REFERENCE_DEPTH} deep, and refuses with 409 one nested deeper`, async () => {
    const world = fakeSecrets();
    const chain = Array.from({ length: MAX_REFERENCE_DEPTH + 2 }, (_, level) => `L${level}`);
    const values = chain.map((name, level) => [name, level === chain.length - 1 ? 'end' : `\${L${level + 1}}`]);
    await changeSecrets(world, at(), { set: Object.fromEntries(values) });
    expect((await getSecret(world, at(), 'L1', undefined)).value).toBe('end');
    await expect(getSecret(world, at(), 'L0', undefined)).rejects.toMatchObject({
      status: 409,
      details: [{ path: 'L0', message: `\${L1} nests more than ${MAX_REFERENCE_DEPTH} references deep` }],
    });
  });

  it('holds references to a limited token’s environments', async () => {
    const world = await referring();
    const token = { ...session, kind: 'token' as const, tokenId: 'AAAAAAAAAAAA' };
    const limited = at(0, { caller: { ...token, projects: [{ projectId, environments: ['production'] }] } });
    await expect(getSecret(world, limited, 'URL', undefined)).rejects.toMatchObject({
      status: 409,
      details: [{ path: 'URL', message: `\${staging.HOST} names no secret this caller can read` }],
    });
    const whole = at(0, { caller: { ...token, projects: [{ projectId }] } });
    await expect(getSecret(world, whole, 'URL', undefined)).resolves.toMatchObject({ value: 'x://db' });
  });

  it('writes the other environments a value references with the write, for the export’s entity tag', async () => {
    const world = await referring();
    await deleteSecret(world, at(), 'URL');
    expect(world.writes.map((write) => write.referencedPlaces)).toEqual([
      undefined,
      [`${projectId}/staging`],
      undefined,
    ]);
  });

  it('moves the export’s entity tag with the environments a referenced one references in turn, and answers with one gone', async () => {
    const world = fakeSecrets([environment('production'), environment('staging'), environment('dev')]);
    await putSecret(world, at(), 'A', { value: 'a' });
    const change = (place: string, fields: Partial<EnvironmentRecord>) =>
      world.places.set(place, { ...(world.places.get(place) as EnvironmentRecord), ...fields });
    change('production', { referencedPlaces: new Set([`${projectId}/staging`, `${projectId}/qa`]) });
    change('staging', { referencedPlaces: new Set([`${projectId}/dev`, `${projectId}/production`]) });
    const { etag, data } = await exportSecrets(world, at());
    expect(data).toEqual({ A: 'a' });
    expect((await exportSecrets(world, at(), etag)).data).toBeUndefined();
    change('dev', { secretsRevision: 7 });
    const moved = await exportSecrets(world, at(), etag);
    expect([moved.data, moved.etag === etag]).toEqual([{ A: 'a' }, false]);
  });

  it(`moves the export’s entity tag with an environment referenced ${MAX_REFERENCE_DEPTH} levels away`, async () => {
    const chain = Array.from({ length: MAX_REFERENCE_DEPTH }, (_, level) => `level${level + 1}`);
    const world = fakeSecrets([environment('production'), ...chain.map((name) => environment(name))]);
    await putSecret(world, at(), 'A', { value: 'a' });
    for (const [index, place] of ['production', ...chain.slice(0, -1)].entries()) {
      const next = new Set([`${projectId}/${chain[index]}`]);
      world.places.set(place, { ...(world.places.get(place) as EnvironmentRecord), referencedPlaces: next });
    }
    const { etag } = await exportSecrets(world, at());
    const last = world.places.get(`level${MAX_REFERENCE_DEPTH}`) as EnvironmentRecord;
    world.places.set(last.name, { ...last, secretsRevision: 1 });
    expect((await exportSecrets(world, at(), etag)).data).toEqual({ A: 'a' });
  });

  it('moves the export’s entity tag with a referenced environment’s revision', async () => {
    const world = await referring();
    const staging = world.places.get('staging') as EnvironmentRecord;
    world.places.set('production', {
      ...(world.places.get('production') as EnvironmentRecord),
      referencedPlaces: new Set([`${projectId}/staging`]),
    });
    const { etag } = await exportSecrets(world, at());
    expect((await exportSecrets(world, at(), etag)).data).toBeUndefined();
    world.places.set('staging', { ...staging, secretsRevision: (staging.secretsRevision ?? 0) + 1 });
    expect((await exportSecrets(world, at(), etag)).data).toEqual({ URL: 'x://db' });
  });
});

describe('getSecret', () => {
  it('answers the current value after recording its read, and nothing else', async () => {
    const world = await withTwoVersions();
    expect(await getSecret(world, at(1), 'API_KEY', undefined)).toEqual({
      name: 'API_KEY',
      value: 'second',
      version: 2,
      updatedAt: now.toISOString(),
      updatedBy: ada,
      references: [],
    });
    expect(world.reads).toEqual([readOf([{ name: 'API_KEY', version: 2 }], at(1).now)]);
  });

  it('answers an earlier version’s value, and the current one when asked for by its number', async () => {
    const world = await withTwoVersions();
    expect(await getSecret(world, at(), 'API_KEY', 1)).toMatchObject({ value: 'first', version: 1 });
    expect(await getSecret(world, at(), 'API_KEY', 2)).toMatchObject({ value: 'second', version: 2 });
    expect(world.reads).toEqual([readOf([{ name: 'API_KEY', version: 1 }]), readOf([{ name: 'API_KEY', version: 2 }])]);
  });

  it('resolves an earlier version’s reference back to its own secret to the current value, recording both versions read', async () => {
    const world = fakeSecrets();
    await putSecret(world, at(), 'B', { value: `\${A}` });
    await putSecret(world, at(), 'A', { value: `\${B}` });
    await putSecret(world, at(), 'A', { value: 'now' });
    expect(await getSecret(world, at(), 'A', 1)).toMatchObject({ value: 'now', version: 1 });
    expect(world.reads).toEqual([
      readOf([
        { name: 'A', version: 1 },
        { name: 'A', version: 2 },
        { name: 'B', version: 1 },
      ]),
    ]);
  });

  it('answers 404 Secret version not found for a version to come, or one that is a delete', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(), 'API_KEY');
    await putSecret(world, at(), 'API_KEY', { value: 'fourth' });
    for (const version of [3, 5]) {
      await expect(getSecret(world, at(), 'API_KEY', version)).rejects.toMatchObject({
        status: 404,
        message: ErrorText.secretVersionNotFound,
      });
    }
    expect(world.reads).toEqual([]);
  });

  it('answers 404 Secret not found for an unknown or deleted secret, and 404s for a stranger or unknown environment', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(), 'API_KEY');
    for (const name of ['API_KEY', 'OTHER']) {
      await expect(getSecret(world, at(), name, undefined)).rejects.toMatchObject({
        status: 404,
        message: ErrorText.secretNotFound,
      });
    }
    await expect(getSecret(world, at(), 'API_KEY', 1)).rejects.toMatchObject({ message: ErrorText.secretNotFound });
    await expect(
      getSecret(world, at(0, { caller: { ...session, userId: 'u-9' } }), 'API_KEY', undefined),
    ).rejects.toMatchObject({ message: ErrorText.projectNotFound });
    await expect(getSecret(world, at(0, { environment: 'staging' }), 'API_KEY', undefined)).rejects.toMatchObject({
      message: ErrorText.environmentNotFound,
    });
    expect(world.reads).toEqual([]);
  });

  it('answers no value whose read could not be recorded', async () => {
    const world = await withTwoVersions();
    world.hooks.failRead = true;
    await expect(getSecret(world, at(), 'API_KEY', undefined)).rejects.toThrow('DynamoDB is unavailable');
  });

  it('refuses a changed value with a DecryptionError and records no read', async () => {
    const world = await withTwoVersions();
    const head = world.head('API_KEY') as SecretHeadRecord;
    world.heads.set(world.headKey('production', 'API_KEY'), { ...head, ciphertext: flipped(head.ciphertext) });
    await expect(getSecret(world, at(), 'API_KEY', undefined)).rejects.toBeInstanceOf(DecryptionError);
    expect(world.reads).toEqual([]);
  });

  it('answers no value, naming the project in its error, when the project holds no data key', async () => {
    const world = await withTwoVersions();
    const { dataKey: _key, ...keyless } = world.project.record;
    world.project.record = keyless;
    await expect(getSecret(world, at(), 'API_KEY', undefined)).rejects.toThrow(
      'Project prj_a holds a value but no data key',
    );
    expect(world.reads).toEqual([]);
  });

  it('answers no value, naming the version in its error, when a live secret’s item holds none', async () => {
    const world = await withTwoVersions();
    const { ciphertext: _value, ...empty } = world.head('API_KEY') as SecretHeadRecord;
    world.heads.set(world.headKey('production', 'API_KEY'), empty);
    await expect(getSecret(world, at(), 'API_KEY', undefined)).rejects.toThrow(
      'Version 2 of API_KEY in prj_a holds no value',
    );
    expect(world.reads).toEqual([]);
  });

  it('refuses an earlier version’s ciphertext written into the head (a rollback), and a version’s moved into another', async () => {
    const world = await withTwoVersions();
    const head = world.head('API_KEY') as SecretHeadRecord;
    const first = world.version('API_KEY', head.life, 1) as SecretVersionRecord;
    const second = world.version('API_KEY', head.life, 2) as SecretVersionRecord;
    world.heads.set(world.headKey('production', 'API_KEY'), { ...head, ciphertext: second.ciphertext });
    await expect(getSecret(world, at(), 'API_KEY', undefined)).rejects.toBeInstanceOf(DecryptionError);
    world.heads.set(world.headKey('production', 'API_KEY'), head);
    world.versions.set(world.versionKey('production', 'API_KEY', head.life, 1), {
      ...first,
      ciphertext: second.ciphertext,
    });
    await expect(getSecret(world, at(), 'API_KEY', 1)).rejects.toBeInstanceOf(DecryptionError);
    expect(world.reads).toEqual([]);
  });

  it('refuses a value moved to another secret or environment', async () => {
    const world = fakeSecrets([environment('production'), environment('staging')]);
    await putSecret(world, at(), 'A', { value: 'a' });
    await putSecret(world, at(), 'B', { value: 'b' });
    await putSecret(world, at(0, { environment: 'staging' }), 'A', { value: 'staging a' });
    const a = world.head('A') as SecretHeadRecord;
    const b = world.head('B') as SecretHeadRecord;
    const staging = world.head('A', 'staging') as SecretHeadRecord;
    world.heads.set(world.headKey('production', 'B'), { ...b, ciphertext: a.ciphertext });
    world.heads.set(world.headKey('staging', 'A'), { ...staging, ciphertext: a.ciphertext });
    await expect(getSecret(world, at(), 'B', undefined)).rejects.toBeInstanceOf(DecryptionError);
    await expect(getSecret(world, at(0, { environment: 'staging' }), 'A', undefined)).rejects.toBeInstanceOf(
      DecryptionError,
    );
    expect((await getSecret(world, at(), 'A', undefined)).value).toBe('a');
  });

  it('opens a value sealed before lives and copies were bound, under the additional data it was sealed with', async () => {
    const world = await withTwoVersions();
    const { binding: _bound, ...head } = world.head('API_KEY') as SecretHeadRecord;
    const key = await world.crypto.keys.dataKeyFor(projectId, world.project.record.dataKey);
    const address = { projectId, environment: 'production', name: 'API_KEY', life: head.life, version: 2 } as const;
    const aad = additionalData({ ...address, copy: 'head' }, undefined);
    const ciphertext = sealBytes(key.plaintext, aad, Buffer.from('sealed long ago'));
    world.heads.set(world.headKey('production', 'API_KEY'), { ...head, ciphertext });
    expect((await getSecret(world, at(), 'API_KEY', undefined)).value).toBe('sealed long ago');
  });
});

describe('exportSecrets', () => {
  it('answers {NAME: value} of the live secrets after recording one read of their names and versions', async () => {
    const world = await withTwoVersions();
    await putSecret(world, at(), 'DB_URL', { value: 'postgres://db' });
    await putSecret(world, at(), 'GONE', { value: 'deleted' });
    await deleteSecret(world, at(), 'GONE');
    expect((await exportSecrets(world, at())).data).toEqual({ API_KEY: 'second', DB_URL: 'postgres://db' });
    expect(world.reads).toEqual([
      readOf([
        { name: 'API_KEY', version: 2 },
        { name: 'DB_URL', version: 1 },
      ]),
    ]);
  });

  it('answers the names in order, whatever order the store lists them in', async () => {
    const world = fakeSecrets();
    await putSecret(world, at(), 'ZED', { value: 'z' });
    await putSecret(world, at(), 'ALPHA', { value: 'a' });
    expect(JSON.stringify((await exportSecrets(world, at())).data)).toBe('{"ALPHA":"a","ZED":"z"}');
    expect(world.reads).toEqual([
      readOf([
        { name: 'ALPHA', version: 1 },
        { name: 'ZED', version: 1 },
      ]),
    ]);
  });

  it('answers {} for an environment with no live secret, recording no read', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(), 'API_KEY');
    expect((await exportSecrets(world, at())).data).toEqual({});
    expect((await exportSecrets(fakeSecrets(), at())).data).toEqual({});
    expect(world.reads).toEqual([]);
  });

  it('answers nothing, and records no read, when one value does not open', async () => {
    const world = await withTwoVersions();
    await putSecret(world, at(), 'DB_URL', { value: 'postgres://db' });
    const head = world.head('DB_URL') as SecretHeadRecord;
    world.heads.set(world.headKey('production', 'DB_URL'), { ...head, ciphertext: flipped(head.ciphertext) });
    await expect(exportSecrets(world, at())).rejects.toBeInstanceOf(DecryptionError);
    expect(world.reads).toEqual([]);
  });

  it('answers no values whose read could not be recorded', async () => {
    const world = await withTwoVersions();
    world.hooks.failRead = true;
    await expect(exportSecrets(world, at())).rejects.toThrow('DynamoDB is unavailable');
  });

  it('answers 404 to a stranger and for an unknown environment', async () => {
    const world = await withTwoVersions();
    await expect(exportSecrets(world, at(0, { caller: { ...session, userId: 'u-9' } }))).rejects.toMatchObject({
      message: ErrorText.projectNotFound,
    });
    await expect(exportSecrets(world, at(0, { environment: 'staging' }))).rejects.toMatchObject({
      message: ErrorText.environmentNotFound,
    });
    expect(world.reads).toEqual([]);
  });
});

describe('exportSecrets with references', () => {
  /**
   * Production holding `BIG` (60,000 characters), 82 secrets referring to it (`R00`…`R81`) and `PAD`,
   * which, `padding` characters long, makes the resolved export exactly as long as an export may be.
   */
  const atTheLimit = async () => {
    const world = fakeSecrets();
    const big = 'v'.repeat(60_000);
    const names = Array.from({ length: 82 }, (_, index) => `R${String(index).padStart(2, '0')}`);
    const resolved = [['BIG', big], ...names.map((name) => [name, big])] as const;
    const bytes = resolved.reduce((sum, [name, value]) => sum + exportBytesOf(name, value), 0);
    const padding = MAX_EXPORT_BYTES - bytes - exportBytesOf('PAD', '');
    await changeSecrets(world, at(), {
      set: { BIG: big, PAD: 'p'.repeat(padding), ...Object.fromEntries(names.map((name) => [name, `\${BIG}`])) },
    });
    return { world, padding };
  };

  it(`answers an export its references make exactly ${MAX_EXPORT_BYTES} bytes long, and refuses one a byte longer with 409 naming where it passes`, async () => {
    const { world, padding } = await atTheLimit();
    const { data } = await exportSecrets(world, at());
    expect(Object.keys(data ?? {})).toHaveLength(84);
    expect(data?.R81).toHaveLength(60_000);
    await putSecret(world, at(), 'PAD', { value: 'p'.repeat(padding + 1) });
    const reads = world.reads.length;
    await expect(exportSecrets(world, at())).rejects.toMatchObject({
      status: 409,
      message: ErrorText.referenceUnresolved,
      details: [{ path: 'R81', message: `its references make the export longer than ${MAX_EXPORT_BYTES} bytes` }],
    });
    expect(world.reads).toHaveLength(reads);
    expect((await exportSecrets(world, at(), undefined, true)).data).toMatchObject({ R81: `\${BIG}` });
  });
});

describe('exportSecrets with If-None-Match', () => {
  it('answers only its tag while the tag holds: no head read, no value opened, no read recorded', async () => {
    const world = await withTwoVersions();
    const { etag } = await exportSecrets(world, at());
    world.headListings.length = 0;
    world.reads.length = 0;
    expect(await exportSecrets(world, at(), etag)).toEqual({ etag });
    expect(world.headListings).toEqual([]);
    expect(world.reads).toEqual([]);
    expect((await exportSecrets(world, at(), '"another"')).data).toEqual({ API_KEY: 'second' });
  });

  it('moves its tag with every write, a delete included, and keeps it while none is made', async () => {
    const world = await withTwoVersions();
    const tags = [(await exportSecrets(world, at())).etag];
    expect((await exportSecrets(world, at(1))).etag).toBe(tags[0]);
    await putSecret(world, at(), 'DB_URL', { value: 'postgres://db' });
    tags.push((await exportSecrets(world, at())).etag);
    await deleteSecret(world, at(), 'DB_URL');
    tags.push((await exportSecrets(world, at())).etag);
    expect(new Set(tags).size).toBe(3);
  });

  it('refuses whom it refuses without it, recording no read', async () => {
    const world = await withTwoVersions();
    const { etag } = await exportSecrets(world, at());
    await expect(exportSecrets(world, at(0, { caller: { ...session, userId: 'u-9' } }), etag)).rejects.toMatchObject({
      message: ErrorText.projectNotFound,
    });
    expect(world.reads).toHaveLength(1);
  });
});

describe('listSecrets with If-None-Match', () => {
  it('reads no head for a live list whose tag holds, and tags the live list apart from the export', async () => {
    const world = await withTwoVersions();
    const { etag } = await listSecrets(world, at());
    expect(etag).not.toBe((await exportSecrets(world, at())).etag);
    world.headListings.length = 0;
    expect(await listSecrets(world, at(), false, etag)).toEqual({ etag });
    expect(world.headListings).toEqual([]);
  });

  it('moves the deleted list’s tag when a delete passes its 30 days, without a write', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(), 'API_KEY');
    const { etag } = await listSecrets(world, at(1), true);
    expect(await listSecrets(world, at(DELETED_SECRET_DAYS - 0.001), true, etag)).toEqual({ etag });
    const expired = await listSecrets(world, at(DELETED_SECRET_DAYS), true, etag);
    expect(expired.data).toEqual([]);
    expect(expired.etag).not.toBe(etag);
  });
});

describe('listSecrets', () => {
  it('lists the live secrets by name, without values', async () => {
    const world = fakeSecrets();
    await putSecret(world, at(), 'ZED', { value: 'z' });
    await putSecret(world, at(1), 'ALPHA', { value: 'a' });
    await putSecret(world, at(), 'GONE', { value: 'g' });
    await deleteSecret(world, at(), 'GONE');
    expect((await listSecrets(world, at(2))).data).toEqual([
      { name: 'ALPHA', version: 1, updatedAt: at(1).now.toISOString(), updatedBy: ada },
      { name: 'ZED', version: 1, updatedAt: now.toISOString(), updatedBy: ada },
    ]);
    expect(world.reads).toEqual([]);
  });

  it('lists, when asked for the deleted, those deleted within 30 days as their delete left them', async () => {
    const world = fakeSecrets();
    await putSecret(world, at(), 'LIVE', { value: 'l' });
    await putSecret(world, at(), 'OLD', { value: 'o' });
    await deleteSecret(world, at(), 'OLD');
    await putSecret(world, at(1), 'RECENT', { value: 'r' });
    await deleteSecret(world, at(1), 'RECENT');
    expect((await listSecrets(world, at(DELETED_SECRET_DAYS - 0.001), true)).data).toEqual([
      { name: 'OLD', version: 2, updatedAt: now.toISOString(), updatedBy: ada },
      { name: 'RECENT', version: 2, updatedAt: at(1).now.toISOString(), updatedBy: ada },
    ]);
    expect((await listSecrets(world, at(DELETED_SECRET_DAYS), true)).data).toEqual([
      expect.objectContaining({ name: 'RECENT' }),
    ]);
  });

  it('lists the deleted, and the live however many, by name whatever order the store lists them in', async () => {
    const world = fakeSecrets();
    const names = Array.from({ length: 40 }, (_, index) => `S${String((index * 17) % 40).padStart(2, '0')}`);
    for (const name of names) await putSecret(world, at(), name, { value: 'v' });
    for (const name of ['S39', 'S07', 'S21']) await deleteSecret(world, at(), name);
    const live = names.filter((name) => !['S39', 'S07', 'S21'].includes(name)).sort();
    expect((await listSecrets(world, at())).data?.map((secret) => secret.name)).toEqual(live);
    expect((await listSecrets(world, at(), true)).data?.map((secret) => secret.name)).toEqual(['S07', 'S21', 'S39']);
  });

  it('lists none of the secrets an environment left in an earlier life', async () => {
    const world = fakeSecrets();
    await putSecret(world, at(), 'LEFT', { value: 'l' });
    await putSecret(world, at(), 'LEFT_DELETED', { value: 'l' });
    await deleteSecret(world, at(), 'LEFT_DELETED');
    world.places.set(
      'production',
      environment('production', { life: 'second-life', createdAt: at(1).now.toISOString() }),
    );
    await putSecret(world, at(1), 'NEW', { value: 'n' });
    expect((await listSecrets(world, at(1))).data?.map((secret) => secret.name)).toEqual(['NEW']);
    expect((await listSecrets(world, at(1), true)).data).toEqual([]);
    expect((await exportSecrets(world, at(1))).data).toEqual({ NEW: 'n' });
  });

  it('counts a head from before lives in an environment from before lives, or made before the head was written', async () => {
    const world = fakeSecrets([environment('production', { life: undefined })]);
    await putSecret(world, at(1), 'OLD', { value: 'o' });
    await putSecret(world, at(1), 'EARLIER', { value: 'e' });
    const earlier = world.head('EARLIER') as SecretHeadRecord;
    world.heads.set(world.headKey('production', 'EARLIER'), { ...earlier, updatedAt: '2026-10-01T00:00:00.000Z' });
    expect((await listSecrets(world, at(1))).data?.map((secret) => secret.name)).toEqual(['EARLIER', 'OLD']);
    // The environment made again (with a life) after OLD was written: OLD is the old one's.
    world.places.set('production', environment('production', { createdAt: at(2).now.toISOString() }));
    expect((await listSecrets(world, at(2))).data).toEqual([]);
    // Made again at the very instant OLD was written: OLD was written in it.
    world.places.set('production', environment('production', { createdAt: at(1).now.toISOString() }));
    expect((await listSecrets(world, at(2))).data?.map((secret) => secret.name)).toEqual(['OLD']);
  });

  it('answers 404 to a stranger and for an unknown environment', async () => {
    const world = fakeSecrets();
    await expect(listSecrets(world, at(0, { caller: { ...session, userId: 'u-9' } }))).rejects.toMatchObject({
      status: 404,
      message: ErrorText.projectNotFound,
    });
    await expect(listSecrets(world, at(0, { environment: 'staging' }))).rejects.toMatchObject({
      status: 404,
      message: ErrorText.environmentNotFound,
    });
  });
});

describe('listVersions', () => {
  it('lists a secret’s versions newest first, its delete among them, for 30 days after it', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(1), 'API_KEY');
    const listed = [
      { version: 3, updatedAt: at(1).now.toISOString(), updatedBy: ada, deleted: true },
      { version: 2, updatedAt: now.toISOString(), updatedBy: ada, deleted: false },
      { version: 1, updatedAt: now.toISOString(), updatedBy: ada, deleted: false },
    ];
    expect(await listVersions(world, at(1), 'API_KEY')).toEqual(listed);
    expect(await listVersions(world, at(1 + DELETED_SECRET_DAYS - 0.001), 'API_KEY')).toEqual(listed);
    await expect(listVersions(world, at(1 + DELETED_SECRET_DAYS), 'API_KEY')).rejects.toMatchObject({
      status: 404,
      message: ErrorText.secretNotFound,
    });
  });

  it('answers 404 for an unknown secret, a stranger and an unknown environment', async () => {
    const world = await withTwoVersions();
    await expect(listVersions(world, at(), 'OTHER')).rejects.toMatchObject({ message: ErrorText.secretNotFound });
    await expect(
      listVersions(world, at(0, { caller: { ...session, userId: 'u-9' } }), 'API_KEY'),
    ).rejects.toMatchObject({ message: ErrorText.projectNotFound });
    await expect(listVersions(world, at(0, { environment: 'staging' }), 'API_KEY')).rejects.toMatchObject({
      message: ErrorText.environmentNotFound,
    });
  });
});

describe('deleteSecret', () => {
  it('deletes softly: no value kept, uncounted, expiring with its 30 days, recording secret.deleted', async () => {
    const world = await withTwoVersions();
    await putSecret(world, at(), 'OTHER', { value: 'stays' });
    await deleteSecret(world, at(1), 'API_KEY');
    const head = world.head('API_KEY') as SecretHeadRecord;
    expect(head).toMatchObject({ version: 3, deletedAt: at(1).now.toISOString(), exportBytes: 0 });
    expect(head.ciphertext).toBeUndefined();
    expect(world.version('API_KEY', head.life, 3)).toMatchObject({ deleted: true });
    expect(world.version('API_KEY', head.life, 3)?.ciphertext).toBeUndefined();
    expect(world.places.get('production')).toMatchObject({
      secretCount: 1,
      exportBytes: exportBytesOf('OTHER', 'stays'),
    });
    const expiresAt = (at(1).now.getTime() + DELETED_SECRET_DAYS * DAY_MS) / 1000;
    expect(world.expiries.get(world.versionKey('production', 'API_KEY', head.life, 3))).toBe(expiresAt);
    expect(world.expiries.size).toBe(1);
    expect(world.events.at(-1)).toEqual(
      eventLike('secret.deleted', {
        time: at(1).now.toISOString(),
        details: expect.objectContaining({ secrets: [{ name: 'API_KEY', version: 3 }] }),
      }),
    );
  });

  it('expires at the whole second after its 30 days', async () => {
    const world = await withTwoVersions();
    const within = new Date(now.getTime() + 400);
    await deleteSecret(world, at(0, { now: within }), 'API_KEY');
    const head = world.head('API_KEY') as SecretHeadRecord;
    expect(world.expiries.get(world.versionKey('production', 'API_KEY', head.life, 3))).toBe(
      (now.getTime() + DELETED_SECRET_DAYS * DAY_MS) / 1000 + 1,
    );
  });

  it('answers 404 Secret not found for an unknown or already deleted secret, writing nothing', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(), 'API_KEY');
    for (const name of ['API_KEY', 'OTHER']) {
      await expect(deleteSecret(world, at(), name)).rejects.toMatchObject({
        status: 404,
        message: ErrorText.secretNotFound,
      });
    }
    expect(world.writes).toHaveLength(3);
  });

  it('deletes without the project’s data key', async () => {
    const world = await withTwoVersions();
    const unwrap = jest.spyOn(world.crypto.keys, 'dataKeyFor');
    await deleteSecret(world, at(), 'API_KEY');
    expect(unwrap).not.toHaveBeenCalled();
    expect(world.writes.at(-1)?.newDataKey).toBeUndefined();
  });
});

describe('restoreSecret', () => {
  it('writes an earlier version’s value as the next version, undeleting, and records secret.restored', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(), 'API_KEY');
    expect(await restoreSecret(world, at(1), 'API_KEY', 1)).toEqual({
      name: 'API_KEY',
      version: 4,
      updatedAt: at(1).now.toISOString(),
      updatedBy: ada,
    });
    expect(await getSecret(world, at(1), 'API_KEY', undefined)).toMatchObject({ value: 'first', version: 4 });
    expect(await getSecret(world, at(1), 'API_KEY', 4)).toMatchObject({ value: 'first', version: 4 });
    expect(world.places.get('production')).toMatchObject({
      secretCount: 1,
      exportBytes: exportBytesOf('API_KEY', 'first'),
    });
    expect(world.events.at(-1)).toEqual(
      eventLike('secret.restored', {
        time: at(1).now.toISOString(),
        details: expect.objectContaining({ secrets: [{ name: 'API_KEY', version: 4 }] }),
      }),
    );
  });

  it('restores a live secret to an earlier value as an update', async () => {
    const world = await withTwoVersions();
    await restoreSecret(world, at(), 'API_KEY', 1);
    expect((await exportSecrets(world, at())).data?.API_KEY).toBe('first');
    expect(world.places.get('production')?.secretCount).toBe(1);
  });

  it('answers 404 Secret version not found for a version it never had or that is a delete', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(), 'API_KEY');
    for (const version of [3, 9]) {
      await expect(restoreSecret(world, at(), 'API_KEY', version)).rejects.toMatchObject({
        status: 404,
        message: ErrorText.secretVersionNotFound,
      });
    }
    expect(world.writes).toHaveLength(3);
  });

  it('answers 404 Secret not found for an unknown secret and one deleted more than 30 days ago', async () => {
    const world = await withTwoVersions();
    await deleteSecret(world, at(), 'API_KEY');
    for (const [name, days] of [
      ['OTHER', 0],
      ['API_KEY', DELETED_SECRET_DAYS],
    ] as const) {
      await expect(restoreSecret(world, at(days), name, 1)).rejects.toMatchObject({
        status: 404,
        message: ErrorText.secretNotFound,
      });
    }
  });

  it('refuses a version whose value does not open, writing nothing', async () => {
    const world = await withTwoVersions();
    const head = world.head('API_KEY') as SecretHeadRecord;
    const first = world.version('API_KEY', head.life, 1) as SecretVersionRecord;
    world.versions.set(world.versionKey('production', 'API_KEY', head.life, 1), {
      ...first,
      ciphertext: head.ciphertext,
    });
    await expect(restoreSecret(world, at(), 'API_KEY', 1)).rejects.toBeInstanceOf(DecryptionError);
    expect(world.writes).toHaveLength(2);
  });
});

describe('changeSecrets', () => {
  it('sets and deletes together, answering each change by name', async () => {
    const world = await withTwoVersions();
    await putSecret(world, at(), 'OLD', { value: 'o' });
    const answer = await changeSecrets(world, at(1), {
      set: { ZED: 'z', API_KEY: 'third' },
      delete: ['OLD'],
      expectedVersions: { API_KEY: 2 },
    });
    const when = at(1).now.toISOString();
    expect(answer).toEqual([
      { name: 'API_KEY', version: 3, updatedAt: when, updatedBy: ada, deleted: false },
      { name: 'OLD', version: 2, updatedAt: when, updatedBy: ada, deleted: true },
      { name: 'ZED', version: 1, updatedAt: when, updatedBy: ada, deleted: false },
    ]);
    expect((await exportSecrets(world, at(1))).data).toEqual({ API_KEY: 'third', ZED: 'z' });
    expect(world.places.get('production')).toMatchObject({
      secretCount: 2,
      exportBytes: exportBytesOf('API_KEY', 'third') + exportBytesOf('ZED', 'z'),
    });
    expect(world.writes).toHaveLength(4);
    expect(world.events.slice(3).map((event) => event.type)).toEqual([
      'secret.created',
      'secret.updated',
      'secret.deleted',
    ]);
  });

  it('writes none of them when one is not at its expected version', async () => {
    const world = await withTwoVersions();
    await expect(
      changeSecrets(world, at(), { set: { NEW: 'n' }, delete: ['API_KEY'], expectedVersions: { API_KEY: 1 } }),
    ).rejects.toMatchObject({ status: 409, message: ErrorText.secretConflict });
    expect([world.writes.length, world.head('NEW')]).toEqual([2, undefined]);
  });

  it('writes none of them when one deletes what is not there', async () => {
    const world = fakeSecrets();
    await expect(changeSecrets(world, at(), { set: { NEW: 'n' }, delete: ['MISSING'] })).rejects.toMatchObject({
      status: 404,
      message: ErrorText.secretNotFound,
    });
    expect(world.writes).toEqual([]);
  });

  it('deletes only, without the project’s data key', async () => {
    const world = await withTwoVersions();
    const unwrap = jest.spyOn(world.crypto.keys, 'dataKeyFor');
    expect(await changeSecrets(world, at(), { delete: ['API_KEY'] })).toEqual([
      expect.objectContaining({ name: 'API_KEY', deleted: true }),
    ]);
    expect(unwrap).not.toHaveBeenCalled();
  });

  it('sets only', async () => {
    const world = fakeSecrets();
    expect(await changeSecrets(world, at(), { set: { A: 'a' } })).toEqual([
      expect.objectContaining({ name: 'A', version: 1, deleted: false }),
    ]);
  });
});

/** A request of the session about the project as a whole (compare, promote), `days` after `now`. */
const inProject = (days = 0, fields: Partial<InProject> = {}): InProject => {
  const { environment: _environment, ...request } = at(days);
  return { ...request, ...fields };
};

/**
 * A project with staging and production, each holding `values` written through the use cases, then
 * given its `settings`.
 */
const twoEnvironments = async (
  staging: Record<string, string>,
  production: Record<string, string>,
  settings: Partial<Record<'staging' | 'production', Partial<EnvironmentRecord>>> = {},
) => {
  const world = fakeSecrets([environment('staging'), environment('production')]);
  for (const [place, values] of [
    ['staging', staging],
    ['production', production],
  ] as const) {
    if (Object.keys(values).length > 0) await changeSecrets(world, at(0, { environment: place }), { set: values });
    world.places.set(place, { ...(world.places.get(place) as EnvironmentRecord), ...settings[place] });
  }
  return world;
};

/** A head as the service wrote it before digests: without `valueDigest`. */
const undigest = (world: ReturnType<typeof fakeSecrets>, place: string, name: string) => {
  const { valueDigest: _digest, ...head } = world.head(name, place) as SecretHeadRecord;
  world.heads.set(world.headKey(place, name), head);
};

const pair = { from: 'staging', to: 'production' };

describe('compareEnvironments', () => {
  it('answers each secret live in either environment by name, with its status and versions, recording no read', async () => {
    const world = await twoEnvironments(
      { SAME: 's', OTHER: 'a', ONLY_STAGING: 'x', GONE: 'g' },
      { SAME: 's', OTHER: 'b' },
    );
    await putSecret(world, at(0, { environment: 'production' }), 'ONLY_PRODUCTION', { value: 'p' });
    await putSecret(world, at(0, { environment: 'staging' }), 'OTHER', { value: 'b2' });
    await deleteSecret(world, at(0, { environment: 'staging' }), 'GONE');
    const events = world.events.length;

    expect(await compareEnvironments(world, inProject(), pair)).toEqual([
      { name: 'ONLY_PRODUCTION', status: 'only-to', fromVersion: null, toVersion: 1 },
      { name: 'ONLY_STAGING', status: 'only-from', fromVersion: 1, toVersion: null },
      { name: 'OTHER', status: 'different', fromVersion: 2, toVersion: 1 },
      { name: 'SAME', status: 'same', fromVersion: 1, toVersion: 1 },
    ]);
    expect([world.reads, world.events.length, world.writes.length]).toEqual([[], events, 5]);
    expect(world.headValueReads).toEqual([]);
  });

  it('answers none for two environments without secrets', async () => {
    const world = await twoEnvironments({}, {});
    expect(await compareEnvironments(world, inProject(), pair)).toEqual([]);
  });

  it('opens only the pairs with a head written before digests, under the project’s key, exactly and unrecorded', async () => {
    const world = await twoEnvironments(
      { OLD_SAME: 'v', OLD_OTHER: 'v1', HALF_SAME: 'h', NEW_SAME: 'n', ALONE: 'a' },
      { OLD_SAME: 'v', OLD_OTHER: 'v2', HALF_SAME: 'h', NEW_SAME: 'n' },
    );
    for (const name of ['OLD_SAME', 'OLD_OTHER']) {
      undigest(world, 'staging', name);
      undigest(world, 'production', name);
    }
    undigest(world, 'production', 'HALF_SAME');
    undigest(world, 'staging', 'ALONE');

    const compared = await compareEnvironments(world, inProject(), pair);

    expect(Object.fromEntries(compared.map((entry) => [entry.name, entry.status]))).toEqual({
      ALONE: 'only-from',
      HALF_SAME: 'same',
      NEW_SAME: 'same',
      OLD_OTHER: 'different',
      OLD_SAME: 'same',
    });
    expect(world.headValueReads).toEqual([['OLD_SAME', 'OLD_OTHER', 'HALF_SAME']]);
    expect(world.reads).toEqual([]);
  });

  it('compares what a pair holds when read again: a secret deleted in between is in one environment only', async () => {
    const world = await twoEnvironments({ OLD: 'v', MOVED: 'm' }, { OLD: 'v', MOVED: 'm' });
    undigest(world, 'staging', 'OLD');
    undigest(world, 'staging', 'MOVED');
    world.hooks.beforeHeadValues = () => {
      const old = world.head('OLD', 'production') as SecretHeadRecord;
      world.heads.set(world.headKey('production', 'OLD'), { ...old, deletedAt: now.toISOString() });
      const moved = world.head('MOVED', 'staging') as SecretHeadRecord;
      world.heads.set(world.headKey('staging', 'MOVED'), {
        ...moved,
        version: 2,
        valueDigest: valueDigest(Buffer.alloc(32), 'unrelated'),
      });
    };

    expect(await compareEnvironments(world, inProject(), pair)).toEqual([
      { name: 'MOVED', status: 'different', fromVersion: 2, toVersion: 1 },
      { name: 'OLD', status: 'only-from', fromVersion: 1, toVersion: null },
    ]);
  });

  it('refuses a value that does not open with a DecryptionError', async () => {
    const world = await twoEnvironments({ OLD: 'v' }, { OLD: 'v' });
    undigest(world, 'staging', 'OLD');
    const head = world.head('OLD', 'staging') as SecretHeadRecord;
    world.heads.set(world.headKey('staging', 'OLD'), { ...head, ciphertext: flipped(head.ciphertext) });
    await expect(compareEnvironments(world, inProject(), pair)).rejects.toBeInstanceOf(DecryptionError);
  });

  it('needs read in both: below it in either is a 403, recorded as a denial naming that environment', async () => {
    for (const place of ['staging', 'production'] as const) {
      const world = await twoEnvironments({ A: 'a' }, {}, { [place]: { defaultAccess: 'none' } });
      await expect(compareEnvironments(world, inProject(), pair)).rejects.toMatchObject({
        status: 403,
        message: ErrorText.environmentAccess,
      });
      expect(world.reads).toEqual([
        eventLike('access.denied', { details: expect.objectContaining({ environment: place, needed: 'read' }) }),
      ]);
    }
    const readOnly = await twoEnvironments({ A: 'a' }, {}, { staging: { defaultAccess: 'read' } });
    expect(await compareEnvironments(readOnly, inProject(), pair)).toHaveLength(1);
  });

  it('answers 404 to a stranger and for an unknown environment on either side', async () => {
    const world = await twoEnvironments({}, {});
    await expect(
      compareEnvironments(world, inProject(0, { caller: { ...session, userId: 'u-9' } }), pair),
    ).rejects.toMatchObject({ status: 404, message: ErrorText.projectNotFound });
    for (const unknown of [
      { from: 'qa', to: 'production' },
      { from: 'staging', to: 'qa' },
    ]) {
      await expect(compareEnvironments(world, inProject(), unknown)).rejects.toMatchObject({
        status: 404,
        message: ErrorText.environmentNotFound,
      });
    }
    expect(world.reads).toEqual([]);
  });
});

/** A promote that wrote at once, as the tests without a protected target expect. */
type Promoted = { readonly written: readonly unknown[] };

describe('promoteSecrets', () => {
  const promote = (names: string[], expectedVersions?: Record<string, number>) => ({
    ...pair,
    names,
    ...(expectedVersions && { expectedVersions }),
  });

  it('writes the current values into `to` as one change, with the sources’ read in its transaction', async () => {
    const world = await twoEnvironments({ B_KEY: 'b', A_KEY: 'a1' }, { B_KEY: 'old' });
    await putSecret(world, at(0, { environment: 'staging' }), 'A_KEY', { value: 'a2' });
    const before = world.writes.length;

    const { written } = (await promoteSecrets(world, inProject(1), promote(['B_KEY', 'A_KEY']))) as Promoted;

    const when = at(1).now.toISOString();
    expect(written).toEqual([
      { name: 'A_KEY', version: 1, updatedAt: when, updatedBy: ada, deleted: false },
      { name: 'B_KEY', version: 2, updatedAt: when, updatedBy: ada, deleted: false },
    ]);
    expect(world.writes).toHaveLength(before + 1);
    expect(world.writes.at(-1)).toMatchObject({ environment: 'production', countDelta: 1 });
    expect(world.writes.at(-1)?.alsoRecorded).toEqual([
      eventLike('secret.read', {
        time: when,
        target: expect.objectContaining({ projectId }),
        details: expect.objectContaining({
          environment: 'staging',
          secrets: [
            { name: 'A_KEY', version: 2 },
            { name: 'B_KEY', version: 1 },
          ],
        }),
      }),
    ]);
    expect(world.events.slice(-3).map((event) => [event.type, event.details.environment])).toEqual([
      ['secret.updated', 'production'],
      ['secret.created', 'production'],
      ['secret.read', 'staging'],
    ]);
    expect(world.reads).toEqual([]);
    expect((await exportSecrets(world, at(0, { environment: 'production' }))).data).toEqual({
      A_KEY: 'a2',
      B_KEY: 'b',
    });
    expect((await compareEnvironments(world, inProject(), pair)).map((entry) => entry.status)).toEqual([
      'same',
      'same',
    ]);
  });

  it('writes at the expected versions only: one moved is a 409, and nothing is written', async () => {
    const world = await twoEnvironments({ A: 'a', B: 'b' }, { A: 'old-a', B: 'old-b' });
    await putSecret(world, at(0, { environment: 'production' }), 'B', { value: 'moved' });
    const before = world.writes.length;

    await expect(promoteSecrets(world, inProject(), promote(['A', 'B'], { A: 1, B: 1 }))).rejects.toMatchObject({
      status: 409,
      message: ErrorText.secretConflict,
    });
    expect(world.writes).toHaveLength(before);
    expect(await promoteSecrets(world, inProject(), promote(['A', 'B'], { A: 1, B: 2 }))).toMatchObject({
      written: [{ name: 'A' }, { name: 'B' }],
    });
  });

  it('reads again when another writer changed a target first, and writes after theirs', async () => {
    const world = await twoEnvironments({ A: 'a' }, { A: 'old' });
    let raced = false;
    world.hooks.interfere = () => {
      if (raced) return undefined;
      raced = true;
      const current = world.head('A', 'production') as SecretHeadRecord;
      world.heads.set(world.headKey('production', 'A'), { ...current, version: 2 });
      return 'changed';
    };
    expect(((await promoteSecrets(world, inProject(), promote(['A']))) as Promoted).written).toEqual([
      expect.objectContaining({ name: 'A', version: 3 }),
    ]);
  });

  it('refuses with 409 a retried write into a `to` protected since its first attempt, writing nothing', async () => {
    const world = await twoEnvironments({ A: 'a' }, { A: 'old' });
    world.hooks.interfere = () => {
      world.hooks.interfere = undefined;
      world.places.set('production', { ...(world.places.get('production') as EnvironmentRecord), protected: true });
      return 'changed';
    };
    await expect(promoteSecrets(world, inProject(), promote(['A']))).rejects.toMatchObject({
      status: 409,
      message: ErrorText.environmentProtected,
    });
    expect(world.head('A', 'production')).toMatchObject({ version: 1 });
    expect(world.events.filter((event) => event.details.environment === 'production')).toHaveLength(1);
  });

  it('answers 404 Secret not found for a name not live in `from`, deleted or never written, writing nothing', async () => {
    const world = await twoEnvironments({ A: 'a', GONE: 'g' }, {});
    await deleteSecret(world, at(0, { environment: 'staging' }), 'GONE');
    const before = world.writes.length;
    for (const missing of ['GONE', 'NEVER']) {
      await expect(promoteSecrets(world, inProject(), promote(['A', missing]))).rejects.toMatchObject({
        status: 404,
        message: ErrorText.secretNotFound,
      });
    }
    expect(world.writes).toHaveLength(before);
  });

  it('refuses a protected `to` with 409 naming its change-request route, after judging access and sources', async () => {
    const world = await twoEnvironments({ A: 'a' }, {}, { production: { protected: true } });
    const before = world.writes.length;
    await expect(promoteSecrets(world, inProject(), promote(['A']))).rejects.toMatchObject({
      status: 409,
      message: ErrorText.environmentProtected,
      details: [
        {
          path: 'environment',
          message: expect.stringContaining(
            `POST /api/v1/projects/${projectId}/environments/production/change-requests`,
          ),
        },
      ],
    });
    await expect(promoteSecrets(world, inProject(), promote(['NEVER']))).rejects.toMatchObject({ status: 404 });
    expect([world.writes.length, world.reads]).toEqual([before, []]);
  });

  it('hands a protected `to` the opened values and the expected versions to propose, once their read is recorded, and writes nothing', async () => {
    const world = await twoEnvironments({ A: 'a', B: 'b' }, { B: 'old' }, { production: { protected: true } });
    const before = world.writes.length;
    const proposals: unknown[] = [];
    const promoted = await promoteSecrets(world, inProject(), promote(['B', 'A'], { B: 1 }), async (...args) => {
      expect(world.reads).toHaveLength(1);
      proposals.push(args);
      return 'proposed';
    });
    expect(promoted).toEqual({ proposed: 'proposed' });
    expect(proposals).toEqual([
      [expect.objectContaining({ projectId, environment: 'production' }), { B: 'b', A: 'a' }, { B: 1 }],
    ]);
    expect(world.reads).toEqual([
      expect.objectContaining({
        type: 'secret.read',
        details: expect.objectContaining({
          environment: 'staging',
          secrets: [
            { name: 'A', version: 1 },
            { name: 'B', version: 1 },
          ],
        }),
      }),
    ]);
    expect(world.writes).toHaveLength(before);
  });

  it('needs read in `from` and write in `to`: below either is a 403, recorded as a denial', async () => {
    const cases = [
      [{ staging: { defaultAccess: 'none' } }, 'staging', 'read'],
      [{ production: { defaultAccess: 'read' } }, 'production', 'write'],
    ] as const;
    for (const [settings, place, needed] of cases) {
      const world = await twoEnvironments({ A: 'a' }, {}, settings);
      const before = world.writes.length;
      await expect(promoteSecrets(world, inProject(), promote(['A']))).rejects.toMatchObject({
        status: 403,
        message: ErrorText.environmentAccess,
      });
      expect(world.reads).toEqual([
        eventLike('access.denied', {
          target: expect.objectContaining({ projectId }),
          details: expect.objectContaining({ environment: place, needed }),
        }),
      ]);
      expect(world.writes).toHaveLength(before);
    }
    const readOnlySource = await twoEnvironments({ A: 'a' }, {}, { staging: { defaultAccess: 'read' } });
    expect(await promoteSecrets(readOnlySource, inProject(), promote(['A']))).toMatchObject({
      written: [{ name: 'A' }],
    });
  });

  it('answers 404 to a stranger and for an unknown environment', async () => {
    const world = await twoEnvironments({ A: 'a' }, {});
    await expect(
      promoteSecrets(world, inProject(0, { caller: { ...session, userId: 'u-9' } }), promote(['A'])),
    ).rejects.toMatchObject({ status: 404, message: ErrorText.projectNotFound });
    await expect(promoteSecrets(world, inProject(), { ...promote(['A']), to: 'qa' })).rejects.toMatchObject({
      status: 404,
      message: ErrorText.environmentNotFound,
    });
  });
});
