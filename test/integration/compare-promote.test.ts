import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ErrorText } from '@contract/errors';
import { secretHeadKey, secretVersionKey } from '@lambdas/data/keys';
import type { LocalService } from '../../local/service';
import { arrange, call, createProject, createToken, signedIn, startService } from './harness';

/**
 * Comparing two environments and promoting secrets from one to another, black box against `npm start`
 * (DynamoDB Local read and written directly only to look at what the service stores, or to make an item
 * as the service wrote it before value digests).
 */

const endpoint = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const tableName = process.env.TEST_TABLE_NAME ?? '';
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
let service: LocalService;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  documentClient.destroy();
});

type Item = Record<string, unknown>;

const getItem = async (key: { PK: string; SK: string }): Promise<Item> => {
  const read = await documentClient.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  if (!read.Item) throw new Error(`no item at ${key.PK} ${key.SK}`);
  return read.Item;
};

const project = (projectId: string) => `/api/v1/projects/${projectId}`;
const secrets = (projectId: string, environment: string) => `${project(projectId)}/environments/${environment}/secrets`;

/** Writes `values` into an environment as one PATCH, answering each secret's new version by name. */
const seed = async (session: string, projectId: string, environment: string, values: Record<string, string>) => {
  const written = await arrange(service, 'PATCH', secrets(projectId, environment), {
    token: session,
    json: { set: values },
  });
  expect(written.status).toBe(200);
  return Object.fromEntries(
    (written.body.data as { name: string; version: number }[]).map((entry) => [entry.name, entry.version]),
  );
};

/** The stored head and current version item of a secret. */
const storedItems = async (projectId: string, environment: string, name: string) => {
  const head = await getItem(secretHeadKey(projectId, environment, name));
  const version = await getItem(
    secretVersionKey(projectId, environment, name, String(head.life), Number(head.version)),
  );
  return { head, version };
};

const hex = (bytes: unknown) => Buffer.from(bytes as Uint8Array).toString('hex');

describe('value digests', () => {
  it('stores with every value written a 32-byte digest on its head, none on its version, the same for the same value', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'one', OTHER: 'two' });
    const put = await call(service, 'PUT', `${secrets(projectId, 'production')}/API_KEY`, {
      token: owner.session,
      json: { value: 'one' },
    });
    expect(put.status).toBe(201);
    await seed(owner.session, projectId, 'production', { API_KEY: 'changed' });
    const restored = await call(service, 'POST', `${secrets(projectId, 'production')}/API_KEY/restore`, {
      token: owner.session,
      json: { version: 1 },
    });
    expect(restored.status).toBe(200);

    const staging = await storedItems(projectId, 'staging', 'API_KEY');
    const other = await storedItems(projectId, 'staging', 'OTHER');
    const production = await storedItems(projectId, 'production', 'API_KEY');
    for (const { head, version } of [staging, other, production]) {
      expect(head.valueDigest).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(head.valueDigest as Uint8Array)).toHaveLength(32);
      expect(version).not.toHaveProperty('valueDigest');
    }
    // The restore of version 1 ('one') stores the digest of 'one' again, as its first write did.
    expect(hex(production.head.valueDigest)).toBe(hex(staging.head.valueDigest));
    expect(hex(other.head.valueDigest)).not.toBe(hex(staging.head.valueDigest));
    const changed = await getItem(
      secretVersionKey(projectId, 'production', 'API_KEY', String(production.head.life), 2),
    );
    expect(changed).not.toHaveProperty('valueDigest');
  });

  it('stores no digest with a delete', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'one' });
    const deleted = await call(service, 'DELETE', `${secrets(projectId, 'staging')}/API_KEY`, {
      token: owner.session,
    });
    expect(deleted.status).toBe(200);
    const { head, version } = await storedItems(projectId, 'staging', 'API_KEY');
    expect([head.valueDigest, version.valueDigest, head.ciphertext]).toEqual([undefined, undefined, undefined]);
  });
});

/** An owner's project with a plain member and an admin in it. */
const projectWithTeam = async () => {
  const owner = await signedIn(service, 'owner');
  const member = await signedIn(service, 'member');
  const admin = await signedIn(service, 'admin');
  const projectId = await createProject(service, owner.session);
  for (const [who, role] of [
    [member, 'member'],
    [admin, 'admin'],
  ] as const) {
    const added = await arrange(service, 'POST', `${project(projectId)}/members`, {
      token: owner.session,
      json: { email: who.email, role },
    });
    expect(added.status).toBe(200);
  }
  return { owner, member, admin, projectId };
};

const setAccess = async (projectId: string, by: string, email: string, access: Record<string, string>) => {
  const set = await arrange(service, 'PUT', `${project(projectId)}/members/${encodeURIComponent(email)}/access`, {
    token: by,
    json: { access },
  });
  expect(set.status).toBe(200);
};

const compare = (token: string, projectId: string, query: string) =>
  call(service, 'GET', `${project(projectId)}/compare?${query}`, { token });

const promote = (token: string, projectId: string, json: unknown) =>
  call(service, 'POST', `${project(projectId)}/promote`, { token, json });

/** The project's trail, newest first, of one type. */
const trail = async (projectId: string, session: string, type: string) => {
  const reply = await call(service, 'GET', `${project(projectId)}/audit-events?type=${type}&limit=100`, {
    token: session,
  });
  expect(reply.status).toBe(200);
  return reply.body.data as {
    type: string;
    actor: { email: string; via: string };
    requestId: string;
    details: { environment: string; secrets: { name: string; version: number }[] | null; needed: string | null };
  }[];
};

/** The values of an environment, as its export answers them (a recorded read, by the owner). */
const valuesIn = async (session: string, projectId: string, environment: string) => {
  const exported = await arrange(service, 'GET', `${project(projectId)}/environments/${environment}/export`, {
    token: session,
  });
  expect(exported.status).toBe(200);
  return exported.body.data as Record<string, string>;
};

const refusal = (error: string) => ({ success: false, error });

describe('GET /api/v1/projects/:projectId/compare', () => {
  it('answers each secret live in either environment, by name, with its status and versions, and no value', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { ONLY_STAGING: 'v-a', SAME: 'v-same', OTHER: 'v-old', GONE: 'x' });
    await seed(owner.session, projectId, 'staging', { OTHER: 'v-new' });
    await seed(owner.session, projectId, 'production', { SAME: 'v-same', OTHER: 'v-old', ONLY_PRODUCTION: 'v-p' });
    const deleted = await call(service, 'DELETE', `${secrets(projectId, 'staging')}/GONE`, { token: owner.session });
    expect(deleted.status).toBe(200);

    const compared = await compare(owner.session, projectId, 'from=staging&to=production');

    expect(compared.status).toBe(200);
    expect(compared.body).toEqual({
      success: true,
      data: [
        { name: 'ONLY_PRODUCTION', status: 'only-to', fromVersion: null, toVersion: 1 },
        { name: 'ONLY_STAGING', status: 'only-from', fromVersion: 1, toVersion: null },
        { name: 'OTHER', status: 'different', fromVersion: 2, toVersion: 1 },
        { name: 'SAME', status: 'same', fromVersion: 1, toVersion: 1 },
      ],
    });
    for (const value of ['v-a', 'v-same', 'v-old', 'v-new', 'v-p']) expect(compared.text).not.toContain(value);
    const reversed = await compare(owner.session, projectId, 'from=production&to=staging');
    expect(reversed.body.data.map((entry: { status: string }) => entry.status)).toEqual([
      'only-from',
      'only-to',
      'different',
      'same',
    ]);
    const empty = await compare(owner.session, projectId, 'from=development&to=production');
    expect(empty.body.data.map((entry: { status: string }) => entry.status)).toEqual(['only-to', 'only-to', 'only-to']);
  });

  it('records no read: no secret.read event, whatever it compares', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'one' });
    await seed(owner.session, projectId, 'production', { API_KEY: 'one' });

    expect((await compare(owner.session, projectId, 'from=staging&to=production')).status).toBe(200);

    expect(await trail(projectId, owner.session, 'secret.read')).toEqual([]);
  });

  it('compares values written before digests exactly, opening them in the function, and records no read', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    const values = { BOTH_OLD_SAME: 'same', BOTH_OLD_OTHER: 'one', ONE_OLD_SAME: 'same', ONE_OLD_OTHER: 'one' };
    await seed(owner.session, projectId, 'staging', values);
    await seed(owner.session, projectId, 'production', { ...values, BOTH_OLD_OTHER: 'two', ONE_OLD_OTHER: 'two' });
    // Items as the service wrote them before digests: without `valueDigest`.
    const withoutDigest = async (environment: string, name: string) => {
      await documentClient.send(
        new UpdateCommand({
          TableName: tableName,
          Key: secretHeadKey(projectId, environment, name),
          UpdateExpression: 'REMOVE valueDigest',
        }),
      );
      expect((await getItem(secretHeadKey(projectId, environment, name))).valueDigest).toBeUndefined();
    };
    for (const name of ['BOTH_OLD_SAME', 'BOTH_OLD_OTHER']) {
      await withoutDigest('staging', name);
      await withoutDigest('production', name);
    }
    await withoutDigest('production', 'ONE_OLD_SAME');
    await withoutDigest('staging', 'ONE_OLD_OTHER');

    const compared = await compare(owner.session, projectId, 'from=staging&to=production');

    expect(compared.status).toBe(200);
    expect(
      Object.fromEntries(
        compared.body.data.map((entry: { name: string; status: string }) => [entry.name, entry.status]),
      ),
    ).toEqual({ BOTH_OLD_OTHER: 'different', BOTH_OLD_SAME: 'same', ONE_OLD_OTHER: 'different', ONE_OLD_SAME: 'same' });
    for (const value of ['one', 'two']) expect(compared.text).not.toContain(value);
    expect(await trail(projectId, owner.session, 'secret.read')).toEqual([]);
  });

  it('needs read in both environments: a member with read compares, one with none in either is refused and recorded', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    await seed(owner.session, projectId, 'staging', { API_KEY: 'one' });
    await setAccess(projectId, owner.session, member.email, { staging: 'read', production: 'read' });
    const allowed = await compare(member.session, projectId, 'from=staging&to=production');
    expect(allowed.status).toBe(200);

    for (const [hidden, query] of [
      ['production', 'from=staging&to=production'],
      ['staging', 'from=staging&to=production'],
    ] as const) {
      await setAccess(projectId, owner.session, member.email, {
        staging: 'read',
        production: 'read',
        [hidden]: 'none',
      });
      const refused = await compare(member.session, projectId, query);
      expect([hidden, refused.status, refused.body]).toEqual([hidden, 403, refusal(ErrorText.environmentAccess)]);
      expect(refused.text).not.toContain('API_KEY');
      const [denial] = await trail(projectId, owner.session, 'access.denied');
      expect(denial).toMatchObject({
        actor: { email: member.email, via: 'session' },
        details: { environment: hidden, needed: 'read' },
      });
    }
  });

  it('refuses a stranger (404), a missing environment (404), and a missing, malformed or repeated environment (400)', async () => {
    const owner = await signedIn(service, 'owner');
    const stranger = await signedIn(service, 'stranger');
    const projectId = await createProject(service, owner.session);
    const notMember = await compare(stranger.session, projectId, 'from=staging&to=production');
    expect([notMember.status, notMember.body]).toEqual([404, refusal(ErrorText.projectNotFound)]);
    const noProject = await compare(owner.session, 'prj_AAAAAAAAAAAAAAAA', 'from=staging&to=production');
    expect([noProject.status, noProject.body]).toEqual([404, refusal(ErrorText.projectNotFound)]);
    for (const query of ['from=qa&to=production', 'from=staging&to=qa']) {
      const missing = await compare(owner.session, projectId, query);
      expect([query, missing.status, missing.body]).toEqual([query, 404, refusal(ErrorText.environmentNotFound)]);
    }
    const cases: [string, { path: string; message: string }[]][] = [
      ['from=staging&to=staging', [{ path: 'to', message: 'Name two environments: from and to are the same' }]],
      ['from=staging', [{ path: 'to', message: 'Give an environment name' }]],
      [
        '',
        [
          { path: 'from', message: 'Give an environment name' },
          { path: 'to', message: 'Give an environment name' },
        ],
      ],
      ['from=Staging&to=production', [{ path: 'from', message: expect.stringContaining('a-z, 0-9 and -') }]],
      [
        'from=staging&to=production&name=X',
        [{ path: '', message: 'Unknown query parameter "name": the query parameters are from, to' }],
      ],
    ];
    for (const [query, details] of cases) {
      const refused = await compare(owner.session, projectId, query);
      expect([query, refused.status, refused.body]).toEqual([
        query,
        400,
        { success: false, error: ErrorText.validation, details },
      ]);
    }
  });

  it('takes a token with read:secrets, not one with write:secrets only, nor one limited to environments', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'one' });
    const reader = await createToken(service, owner.session, { name: 'r', scopes: ['read:secrets'] });
    const writer = await createToken(service, owner.session, { name: 'w', scopes: ['write:secrets'] });
    const ofProject = await createToken(service, owner.session, {
      name: 'p',
      scopes: ['read:secrets'],
      projects: [{ projectId }],
    });
    const ofEnvironments = await createToken(service, owner.session, {
      name: 'e',
      scopes: ['read:secrets'],
      projects: [{ projectId, environments: ['staging', 'production'] }],
    });
    const query = 'from=staging&to=production';
    for (const token of [reader, ofProject]) {
      const allowed = await compare(token.rawToken, projectId, query);
      expect(allowed.body.data).toEqual([{ name: 'API_KEY', status: 'only-from', fromVersion: 1, toVersion: null }]);
    }
    const unscoped = await compare(writer.rawToken, projectId, query);
    expect([unscoped.status, unscoped.body]).toEqual([403, refusal(ErrorText.scope)]);
    const limited = await compare(ofEnvironments.rawToken, projectId, query);
    expect([limited.status, limited.body]).toEqual([403, refusal(ErrorText.tokenResource)]);
  });
});

describe('POST /api/v1/projects/:projectId/promote', () => {
  it('copies the current values into the other environment as one change, answering each at its new version', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'key-1', DB_URL: 'db-1', UNTOUCHED: 'u' });
    await seed(owner.session, projectId, 'staging', { API_KEY: 'key-2' });
    await seed(owner.session, projectId, 'production', { DB_URL: 'db-old', KEPT: 'k' });

    const promoted = await promote(owner.session, projectId, {
      from: 'staging',
      to: 'production',
      names: ['DB_URL', 'API_KEY'],
    });

    expect(promoted.status).toBe(200);
    const by = { userId: expect.any(String), email: owner.email };
    expect(promoted.body).toEqual({
      success: true,
      data: [
        { name: 'API_KEY', version: 1, updatedAt: expect.any(String), updatedBy: by, deleted: false },
        { name: 'DB_URL', version: 2, updatedAt: expect.any(String), updatedBy: by, deleted: false },
      ],
    });
    expect(promoted.text).not.toContain('key-2');
    expect(await valuesIn(owner.session, projectId, 'production')).toEqual({
      API_KEY: 'key-2',
      DB_URL: 'db-1',
      KEPT: 'k',
    });
    const compared = await compare(owner.session, projectId, 'from=staging&to=production');
    expect(compared.body.data).toEqual([
      { name: 'API_KEY', status: 'same', fromVersion: 2, toVersion: 1 },
      { name: 'DB_URL', status: 'same', fromVersion: 1, toVersion: 2 },
      { name: 'KEPT', status: 'only-to', fromVersion: null, toVersion: 1 },
      { name: 'UNTOUCHED', status: 'only-from', fromVersion: 1, toVersion: null },
    ]);
  });

  it('records the read of the sources in from and each write in to, in the same request', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'key', DB_URL: 'db' });
    await seed(owner.session, projectId, 'staging', { API_KEY: 'key-2' });
    await seed(owner.session, projectId, 'production', { DB_URL: 'db-old' });
    const token = await createToken(service, owner.session, { name: 'ci', scopes: ['write:secrets'] });

    const promoted = await promote(token.rawToken, projectId, {
      from: 'staging',
      to: 'production',
      names: ['DB_URL', 'API_KEY'],
    });
    expect(promoted.status).toBe(200);

    const [read, ...earlier] = await trail(projectId, owner.session, 'secret.read');
    expect(earlier.filter((event) => event.details.environment === 'staging')).toEqual([]);
    expect(read).toMatchObject({
      actor: { email: owner.email, via: 'token' },
      details: {
        environment: 'staging',
        secrets: [
          { name: 'API_KEY', version: 2 },
          { name: 'DB_URL', version: 1 },
        ],
      },
    });
    const [created] = await trail(projectId, owner.session, 'secret.created');
    const [updated] = await trail(projectId, owner.session, 'secret.updated');
    expect(created).toMatchObject({
      details: { environment: 'production', secrets: [{ name: 'API_KEY', version: 1 }] },
    });
    expect(updated).toMatchObject({
      details: { environment: 'production', secrets: [{ name: 'DB_URL', version: 2 }] },
    });
    expect(new Set([read?.requestId, created?.requestId, updated?.requestId]).size).toBe(1);
  });

  it('is all or nothing: a target that moved from its expected version is a 409, and nothing is written or recorded', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'new-key', DB_URL: 'new-db' });
    await seed(owner.session, projectId, 'production', { API_KEY: 'old-key', DB_URL: 'old-db' });
    // What the caller compared...
    const compared = await compare(owner.session, projectId, 'from=staging&to=production');
    const seen = Object.fromEntries(
      compared.body.data.map((entry: { name: string; toVersion: number }) => [entry.name, entry.toVersion]),
    );
    // ...then DB_URL moves in production.
    await seed(owner.session, projectId, 'production', { DB_URL: 'moved-db' });
    const before = await trail(projectId, owner.session, 'secret.updated');

    const refused = await promote(owner.session, projectId, {
      from: 'staging',
      to: 'production',
      names: ['API_KEY', 'DB_URL'],
      expectedVersions: seen,
    });

    expect([refused.status, refused.body]).toEqual([409, refusal(ErrorText.secretConflict)]);
    expect(await trail(projectId, owner.session, 'secret.read')).toEqual([]);
    expect(await trail(projectId, owner.session, 'secret.updated')).toEqual(before);
    expect(await valuesIn(owner.session, projectId, 'production')).toEqual({ API_KEY: 'old-key', DB_URL: 'moved-db' });
    // At the versions it holds now, the same promote is written.
    const written = await promote(owner.session, projectId, {
      from: 'staging',
      to: 'production',
      names: ['API_KEY', 'DB_URL'],
      expectedVersions: { API_KEY: 1, DB_URL: 2 },
    });
    expect(written.body.data.map((entry: { version: number }) => entry.version)).toEqual([2, 3]);
  });

  it('answers 404 Secret not found for a name not live in from, and writes nothing', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'key', GONE: 'x' });
    expect(
      (await call(service, 'DELETE', `${secrets(projectId, 'staging')}/GONE`, { token: owner.session })).status,
    ).toBe(200);
    for (const missing of ['NEVER', 'GONE']) {
      const refused = await promote(owner.session, projectId, {
        from: 'staging',
        to: 'production',
        names: ['API_KEY', missing],
      });
      expect([missing, refused.status, refused.body]).toEqual([missing, 404, refusal(ErrorText.secretNotFound)]);
    }
    expect(await valuesIn(owner.session, projectId, 'production')).toEqual({});
    expect(await trail(projectId, owner.session, 'secret.read')).toEqual([]);
  });

  it('needs read in from and write in to: members below either are refused with 403, recorded', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    await seed(owner.session, projectId, 'staging', { API_KEY: 'key' });
    const body = { from: 'staging', to: 'production', names: ['API_KEY'] };
    const cases = [
      [{ staging: 'none', production: 'write' }, 'staging', 'read'],
      [{ staging: 'read', production: 'read' }, 'production', 'write'],
      [{ staging: 'write', production: 'none' }, 'production', 'write'],
    ] as const;
    for (const [access, environment, needed] of cases) {
      await setAccess(projectId, owner.session, member.email, access);
      const refused = await promote(member.session, projectId, body);
      expect([access, refused.status, refused.body]).toEqual([access, 403, refusal(ErrorText.environmentAccess)]);
      const [denial] = await trail(projectId, owner.session, 'access.denied');
      expect(denial).toMatchObject({ actor: { email: member.email }, details: { environment, needed } });
    }
    expect(await valuesIn(owner.session, projectId, 'production')).toEqual({});

    await setAccess(projectId, owner.session, member.email, { staging: 'read', production: 'write' });
    const allowed = await promote(member.session, projectId, body);
    expect([allowed.status, allowed.body.data[0].updatedBy.email]).toEqual([200, member.email]);
  });

  it('into a protected target proposes the change as a change request (201), writes nothing, and records the read; approved, it is applied', async () => {
    const { owner, admin, projectId } = await projectWithTeam();
    await seed(owner.session, projectId, 'staging', { API_KEY: 'staging-key', DB_URL: 'staging-db' });
    await seed(owner.session, projectId, 'production', { DB_URL: 'db-old' });
    const protect = await arrange(service, 'PATCH', `${project(projectId)}/environments/production`, {
      token: owner.session,
      json: { protected: true },
    });
    expect(protect.status).toBe(200);

    const proposed = await promote(owner.session, projectId, {
      from: 'staging',
      to: 'production',
      names: ['API_KEY', 'DB_URL'],
      expectedVersions: { DB_URL: 1 },
    });

    expect(proposed.status).toBe(201);
    expect(proposed.text).not.toContain('staging-');
    expect(proposed.body.data).toMatchObject({
      environment: 'production',
      status: 'open',
      author: { email: owner.email },
      note: 'Promoted from staging',
      changes: [
        { name: 'API_KEY', action: 'set', fromVersion: 0 },
        { name: 'DB_URL', action: 'set', fromVersion: 1 },
      ],
      approvalsNeeded: 1,
    });
    expect(await valuesIn(owner.session, projectId, 'production')).toEqual({ DB_URL: 'db-old' });
    const reads = await trail(projectId, owner.session, 'secret.read');
    expect(reads.filter((event) => event.details.environment === 'staging')).toMatchObject([
      {
        details: {
          environment: 'staging',
          secrets: [
            { name: 'API_KEY', version: 1 },
            { name: 'DB_URL', version: 1 },
          ],
        },
      },
    ]);

    const requests = `${project(projectId)}/environments/production/change-requests/${proposed.body.data.id}`;
    const approved = await call(service, 'POST', `${requests}/approve`, { token: admin.session });
    expect([approved.status, approved.body.data?.status]).toEqual([200, 'applied']);
    expect(await valuesIn(owner.session, projectId, 'production')).toEqual({
      API_KEY: 'staging-key',
      DB_URL: 'staging-db',
    });
  });

  it('into a protected target names the request with the caller’s note, and checks the target versions it expects first', async () => {
    const { owner, projectId } = await projectWithTeam();
    await seed(owner.session, projectId, 'staging', { API_KEY: 'key' });
    await seed(owner.session, projectId, 'production', { API_KEY: 'old' });
    const protect = await arrange(service, 'PATCH', `${project(projectId)}/environments/production`, {
      token: owner.session,
      json: { protected: true },
    });
    expect(protect.status).toBe(200);

    const stale = await promote(owner.session, projectId, {
      from: 'staging',
      to: 'production',
      names: ['API_KEY'],
      expectedVersions: { API_KEY: 0 },
    });
    expect([stale.status, stale.body]).toEqual([409, refusal(ErrorText.secretConflict)]);

    const noted = await promote(owner.session, projectId, {
      from: 'staging',
      to: 'production',
      names: ['API_KEY'],
      note: 'Release 4.2',
    });
    expect([noted.status, noted.body.data.note]).toEqual([201, 'Release 4.2']);
    const open = await call(service, 'GET', `${project(projectId)}/environments/production/change-requests`, {
      token: owner.session,
    });
    expect(open.body.data.map((request: { note: string }) => request.note)).toEqual(['Release 4.2']);
    // Out of a protected environment is only a read of it.
    const out = await promote(owner.session, projectId, { from: 'production', to: 'staging', names: ['API_KEY'] });
    expect([out.status, out.body.data[0].version]).toEqual([200, 2]);
  });

  it('refuses a stranger (404), a missing environment (404) and a body that breaks its rules (400)', async () => {
    const owner = await signedIn(service, 'owner');
    const stranger = await signedIn(service, 'stranger');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'key' });
    const body = { from: 'staging', to: 'production', names: ['API_KEY'] };
    const notMember = await promote(stranger.session, projectId, body);
    expect([notMember.status, notMember.body]).toEqual([404, refusal(ErrorText.projectNotFound)]);
    for (const pair of [
      { from: 'qa', to: 'production' },
      { from: 'staging', to: 'qa' },
    ]) {
      const missing = await promote(owner.session, projectId, { ...body, ...pair });
      expect([pair, missing.status, missing.body]).toEqual([pair, 404, refusal(ErrorText.environmentNotFound)]);
    }
    const names = (count: number) => Array.from({ length: count }, (_, i) => `NAME_${i}`);
    const cases: [unknown, { path: string; message: string }[]][] = [
      [{ ...body, to: 'staging' }, [{ path: 'to', message: 'Name two environments: from and to are the same' }]],
      [{ ...body, names: [] }, [{ path: 'names', message: 'Name 1 to 25 secrets' }]],
      [{ ...body, names: names(26) }, [{ path: 'names', message: 'Name 1 to 25 secrets' }]],
      [{ ...body, names: ['API_KEY', 'API_KEY'] }, [{ path: 'names', message: 'Name each secret once' }]],
      [
        { ...body, names: ['9LIVES'] },
        [{ path: 'names.0', message: expect.stringContaining('not starting with a digit') }],
      ],
      [
        { ...body, expectedVersions: { OTHER: 1 } },
        [{ path: 'expectedVersions', message: 'Expect versions only of the secrets this request promotes' }],
      ],
      [{ from: 'staging', names: ['API_KEY'] }, [{ path: 'to', message: 'Give an environment name' }]],
    ];
    for (const [json, details] of cases) {
      const refused = await promote(owner.session, projectId, json);
      expect([json, refused.status, refused.body]).toEqual([
        json,
        400,
        { success: false, error: ErrorText.validation, details },
      ]);
    }
    expect(await valuesIn(owner.session, projectId, 'production')).toEqual({});
  });

  it('takes a token with write:secrets, not one with read:secrets only, nor one limited to environments', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await seed(owner.session, projectId, 'staging', { API_KEY: 'key' });
    const body = { from: 'staging', to: 'production', names: ['API_KEY'] };
    const reader = await createToken(service, owner.session, { name: 'r', scopes: ['read:secrets'] });
    const ofEnvironments = await createToken(service, owner.session, {
      name: 'e',
      scopes: ['write:secrets'],
      projects: [{ projectId, environments: ['staging', 'production'] }],
    });
    const ofProject = await createToken(service, owner.session, {
      name: 'p',
      scopes: ['write:secrets'],
      projects: [{ projectId }],
    });
    const unscoped = await promote(reader.rawToken, projectId, body);
    expect([unscoped.status, unscoped.body]).toEqual([403, refusal(ErrorText.scope)]);
    const limited = await promote(ofEnvironments.rawToken, projectId, body);
    expect([limited.status, limited.body]).toEqual([403, refusal(ErrorText.tokenResource)]);
    const allowed = await promote(ofProject.rawToken, projectId, body);
    expect([allowed.status, allowed.body.data[0].version]).toEqual([200, 1]);
  });
});
