import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { sealBytes } from '@lambdas/crypto/aes-gcm';
import { keyWrapper } from '@lambdas/crypto/key-wrapper';
import { projectKey, secretHeadKey, secretVersionKey } from '@lambdas/data/keys';
import { setClock } from '@lambdas/domain/clock';
import type { LocalService } from '../../local/service';
import { call, captureOutput, createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';

/**
 * A ciphertext opens only as the copy it was sealed for: the head's copy of a version of one life of a
 * secret, or that version's own item. Someone who can write the table but holds no data key writes it
 * directly here (DynamoDB Local), as an attacker would, and every such move is refused with a 500, a log
 * line naming the item, no value and no `secret.read` event. Values sealed before lives were bound (no
 * `binding` on their item) are still read.
 */

const endpoint = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const tableName = process.env.TEST_TABLE_NAME ?? '';
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
let lines: string[] = [];
let service: LocalService;

beforeAll(async () => {
  lines = captureOutput();
  service = await startService();
});
afterAll(async () => {
  setClock();
  jest.restoreAllMocks();
  await service.close();
  documentClient.destroy();
});
// A test that fails or times out with the clock moved must not leave it moved for the next one.
afterEach(() => setClock());

type Item = Record<string, unknown>;
const DAY_MS = 24 * 60 * 60 * 1000;

const getItem = async (key: { PK: string; SK: string }): Promise<Item> => {
  const read = await documentClient.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  if (!read.Item) throw new Error(`no item at ${key.PK} ${key.SK}`);
  return read.Item;
};
const putItem = (item: Item) => documentClient.send(new PutCommand({ TableName: tableName, Item: item }));

/** `target` carrying the stored value (ciphertext and its binding, if any) of `source`, as a table writer could. */
const withValueOf = (target: Item, source: Item, fields: Item = {}): Item => {
  const { binding: _binding, ciphertext: _ciphertext, ...rest } = target;
  return Object.assign(
    rest,
    fields,
    { ciphertext: source.ciphertext },
    source.binding === undefined ? {} : { binding: source.binding },
  );
};

/** An owner with a token that never expires (a session would not last the month), and a project of theirs. */
const ownerWithProject = async (label: string) => {
  const session = await sessionFor(service, uniqueEmail(label));
  const { rawToken: token } = await createToken(service, session, { name: label, scopes: ['admin'], ttlDays: null });
  const projectId = await createProject(service, session);
  const base = `/api/v1/projects/${projectId}/environments/development`;
  return { token, projectId, base };
};

/** The `secret.read` events of the project's trail. */
const readEvents = async (token: string, projectId: string) => {
  const reply = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events?type=secret.read&limit=100`, {
    token,
  });
  expect(reply.status).toBe(200);
  return reply.body.data as { details: { secrets: { name: string; version: number }[] } }[];
};

/** Expects a refusal as any unexpected failure answers it, and a log line since `before` naming `item`. */
const expectRefused = (
  reply: { status: number; body: unknown; text: string },
  before: number,
  item: string,
  values: readonly string[],
) => {
  expect([reply.status, reply.body]).toEqual([500, { success: false, error: 'Internal server error' }]);
  const logged = lines.slice(before).join('\n');
  expect(logged).toContain(item);
  for (const value of values) {
    expect(reply.text).not.toContain(value);
    expect(logged).not.toContain(value);
  }
};

describe('a value bound to its copy, version and life', () => {
  it('refuses a head rolled back to an older version’s number and ciphertext, reading and exporting', async () => {
    const { token, projectId, base } = await ownerWithProject('rollback');
    const [first, second] = ['first', 'second'].map((label) => `canary-${label}-${randomUUID()}`) as [string, string];
    expect((await call(service, 'PUT', `${base}/secrets/API_KEY`, { token, json: { value: first } })).status).toBe(201);
    expect((await call(service, 'PUT', `${base}/secrets/API_KEY`, { token, json: { value: second } })).status).toBe(
      200,
    );
    const headKey = secretHeadKey(projectId, 'development', 'API_KEY');
    const head = await getItem(headKey);
    const versionOne = await getItem(secretVersionKey(projectId, 'development', 'API_KEY', String(head.life), 1));

    await putItem(withValueOf(head, versionOne, { version: 1, exportBytes: head.exportBytes }));
    const before = lines.length;
    const read = await call(service, 'GET', `${base}/secrets/API_KEY`, { token });
    const exported = await call(service, 'GET', `${base}/export`, { token });

    expectRefused(read, before, `${projectId}/development/API_KEY version 1`, [first, second]);
    expectRefused(exported, before, `${projectId}/development/API_KEY version 1`, [first, second]);
    expect(lines.slice(before).join('\n')).toMatch(/API_KEY version 1 \(the head/);
    expect(await readEvents(token, projectId)).toEqual([]);
  });

  it('refuses a value of an ended life served as the same version of the next life', async () => {
    const { token, projectId, base } = await ownerWithProject('lives');
    const path = `${base}/secrets/DB_URL`;
    const [old, fresh, later] = ['old', 'fresh', 'later'].map((label) => `canary-${label}-${randomUUID()}`) as [
      string,
      string,
      string,
    ];
    expect((await call(service, 'PUT', path, { token, json: { value: old } })).status).toBe(201);
    const headKey = secretHeadKey(projectId, 'development', 'DB_URL');
    const oldHead = await getItem(headKey);
    expect((await call(service, 'DELETE', path, { token })).status).toBe(200);
    setClock({ now: () => new Date(Date.now() + 30 * DAY_MS + 60_000) });
    expect((await call(service, 'PUT', path, { token, json: { value: fresh } })).body.data.version).toBe(1);
    expect((await call(service, 'PUT', path, { token, json: { value: later } })).body.data.version).toBe(2);
    const head = await getItem(headKey);
    const life = String(head.life);
    expect(life).not.toBe(oldHead.life);
    const oldVersion = await getItem(secretVersionKey(projectId, 'development', 'DB_URL', String(oldHead.life), 1));
    const newVersion = await getItem(secretVersionKey(projectId, 'development', 'DB_URL', life, 1));

    // The old life's version 1 in the new life's version 1 item: read and restore open it.
    await putItem(withValueOf(newVersion, oldVersion));
    let before = lines.length;
    const read = await call(service, 'GET', `${path}?version=1`, { token });
    const restored = await call(service, 'POST', `${path}/restore`, { token, json: { version: 1 } });
    expectRefused(read, before, `${projectId}/development/DB_URL version 1`, [old, fresh, later]);
    expectRefused(restored, before, `${projectId}/development/DB_URL version 1`, [old, fresh, later]);
    expect(lines.slice(before).join('\n')).toContain(`(a version, life ${life})`);

    // The old life's head at version 1, as someone who read it then kept it, as the new life's head.
    await putItem(withValueOf(head, oldHead, { version: 1 }));
    before = lines.length;
    const current = await call(service, 'GET', path, { token });
    expectRefused(current, before, `${projectId}/development/DB_URL version 1`, [old, fresh, later]);
    expect(lines.slice(before).join('\n')).toContain(`(the head, life ${life})`);

    setClock();
    expect(await readEvents(token, projectId)).toEqual([]);
  });

  it('reads a value sealed before lives were bound, and binds the next write', async () => {
    const { token, projectId, base } = await ownerWithProject('legacy');
    const path = `${base}/secrets/LEGACY`;
    expect((await call(service, 'PUT', `${base}/secrets/OTHER`, { token, json: { value: 'other' } })).status).toBe(201);
    // The items as the service wrote them before: one ciphertext, sealed with [project, environment, name,
    // version] as additional data, in the head and in the version, and no `binding`.
    const { dataKey } = await getItem(projectKey(projectId));
    const key = await keyWrapper.unwrap(projectId, dataKey as Uint8Array);
    const value = `canary-legacy-${randomUUID()}`;
    const sealed = sealBytes(
      key,
      Buffer.from(JSON.stringify([projectId, 'development', 'LEGACY', 1]), 'utf8'),
      Buffer.from(value, 'utf8'),
    );
    const life = 'Legacy0Life1';
    const written = {
      name: 'LEGACY',
      version: 1,
      updatedAt: new Date().toISOString(),
      updatedBy: { userId: 'u', email: null },
    };
    const headKey = secretHeadKey(projectId, 'development', 'LEGACY');
    await putItem(
      Object.assign({}, headKey, { entity: 'SecretHead' }, written, {
        projectId,
        environment: 'development',
        life,
        exportBytes: 10,
        ciphertext: sealed,
      }),
    );
    await putItem(
      Object.assign(
        {},
        secretVersionKey(projectId, 'development', 'LEGACY', life, 1),
        { entity: 'SecretVersion' },
        written,
        {
          deleted: false,
          ciphertext: sealed,
        },
      ),
    );

    expect((await call(service, 'GET', path, { token })).body.data).toMatchObject({ value, version: 1 });
    expect((await call(service, 'GET', `${base}/export`, { token })).body.data).toEqual({
      LEGACY: value,
      OTHER: 'other',
    });
    const restored = await call(service, 'POST', `${path}/restore`, { token, json: { version: 1 } });
    expect([restored.status, restored.body.data?.version]).toEqual([200, 2]);
    expect((await call(service, 'GET', `${path}?version=1`, { token })).body.data.value).toBe(value);
    expect((await call(service, 'GET', path, { token })).body.data).toMatchObject({ value, version: 2 });

    // The restore wrote the new binding: the head's copy and the version's are sealed apart.
    const head = await getItem(headKey);
    const version = await getItem(secretVersionKey(projectId, 'development', 'LEGACY', life, 2));
    expect([head.binding, version.binding]).toEqual([2, 2]);
    expect(Buffer.from(head.ciphertext as Uint8Array).equals(Buffer.from(version.ciphertext as Uint8Array))).toBe(
      false,
    );
  });
});
