import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { openShare, sealShare } from '@client/index';
import { secretHeadKey, tokenKey } from '@lambdas/data/keys';
import { setClock } from '@lambdas/domain/clock';
import type { LocalService } from '../../local/service';
import {
  call,
  captureOutput,
  createProject,
  createToken,
  devSession,
  sessionFor,
  startService,
  uniqueEmail,
} from './harness';
import { type NpmService, startNpmService } from './npm-start';
import { findSecrets, scanTable } from './secret-scan';

const endpoint = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const tableName = process.env.TEST_TABLE_NAME ?? '';
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
let lines: string[] = [];
const secrets: string[] = [];
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

const remember = (...values: string[]) => {
  for (const value of values) secrets.push(value);
};

describe('no secret anywhere it should not be', () => {
  it('logs structured JSON lines that name the denying rule and never a credential', async () => {
    const email = uniqueEmail('hygiene');
    const session = await sessionFor(service, email);
    const reader = await createToken(service, session, { name: 'r', scopes: ['read:secrets'] });
    const admin = await createToken(service, session, { name: 'a', scopes: ['admin'], ttlDays: 1 });
    remember(session, reader.rawToken, admin.rawToken, reader.rawToken.slice(21, 45), admin.rawToken.slice(21, 45));
    remember(`Bearer ${session}`, `Bearer ${reader.rawToken}`, session.split('.')[2] ?? session);

    const projectId = await createProject(service, session);
    await call(service, 'GET', '/api/v1/tokens', { token: admin.rawToken });
    await call(service, 'GET', `/api/v1/projects/${projectId}/members`, { token: reader.rawToken });
    await call(service, 'POST', `/api/v1/projects/${projectId}/members`, { token: reader.rawToken, json: {} });
    await call(service, 'GET', '/api/v1/tokens', { token: admin.rawToken, from: '127.0.0.2' });
    await call(service, 'GET', '/api/v1/tokens', {
      token: `${admin.rawToken.slice(0, -1)}${admin.rawToken.endsWith('x') ? 'y' : 'x'}`,
    });
    await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      rawBody: `{"name":"${admin.rawToken}"`,
      headers: [['Content-Type', 'application/json']],
    });
    setClock({ now: () => new Date(Date.now() + 2 * 24 * 60 * 60 * 1000) });
    await call(service, 'GET', '/api/v1/tokens', { token: admin.rawToken });
    setClock();
    await call(service, 'DELETE', `/api/v1/tokens/${reader.id}`, { token: session });
    await call(service, 'GET', '/api/v1/tokens', { token: reader.rawToken });

    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      // A log line, or a metrics line in the embedded metric format.
      if (entry._aws === undefined) {
        expect(typeof entry.level).toBe('string');
        expect(typeof entry.message).toBe('string');
      }
      for (const secret of secrets) expect(line).not.toContain(secret);
    }
    expect(findSecrets(lines.join('\n'))).toEqual([]);
    const rules = lines.map((line) => JSON.parse(line) as { rule?: string }).map((entry) => entry.rule);
    expect(rules).toEqual(
      expect.arrayContaining(['token-scope', 'token-ip', 'malformed-token', 'token-expired', 'unknown-token']),
    );
  });

  it('stores only the hash of a token, and a TTL only on tokens that expire', async () => {
    const session = await sessionFor(service, uniqueEmail('hygiene'));
    const expiring = await createToken(service, session, { name: 'e', scopes: ['admin'], ttlDays: 5 });
    const forever = await createToken(service, session, { name: 'f', scopes: ['admin'], ttlDays: null });
    const read = async (id: string) =>
      (await documentClient.send(new GetCommand({ TableName: tableName, Key: tokenKey(id), ConsistentRead: true })))
        .Item ?? {};

    const expiringItem = await read(expiring.id);
    const foreverItem = await read(forever.id);
    for (const [item, raw] of [
      [expiringItem, expiring.rawToken],
      [foreverItem, forever.rawToken],
    ] as const) {
      expect(JSON.stringify(item)).not.toContain(raw);
      expect(JSON.stringify(item)).not.toContain(raw.slice(21, 45));
      expect(item.secretHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(item.rawToken).toBeUndefined();
    }
    expect(typeof expiringItem.ttl).toBe('number');
    expect(expiringItem.ttl).toBeGreaterThan(Date.parse(expiring.expiresAt ?? '') / 1000);
    expect('ttl' in foreverItem).toBe(false);
  });

  it('never shows a secret’s value in a log line or an answer but the reads that return it', async () => {
    const session = await sessionFor(service, uniqueEmail('values'));
    const projectId = await createProject(service, session);
    const path = `/api/v1/projects/${projectId}/environments/development/secrets`;
    const [first, second, patched] = ['first', 'second', 'patched'].map((label) => `canary-${label}-${randomUUID()}`);
    remember(first as string, second as string, patched as string);
    const answers = [
      await call(service, 'PUT', `${path}/DB_PASSWORD`, { token: session, json: { value: first } }),
      await call(service, 'PUT', `${path}/DB_PASSWORD`, { token: session, json: { value: second } }),
      await call(service, 'PATCH', path, { token: session, json: { set: { OTHER: patched } } }),
      await call(service, 'GET', path, { token: session }),
      await call(service, 'GET', `${path}/DB_PASSWORD/versions`, { token: session }),
      await call(service, 'POST', `${path}/DB_PASSWORD/restore`, { token: session, json: { version: 1 } }),
      await call(service, 'DELETE', `${path}/OTHER`, { token: session }),
      await call(service, 'PUT', `${path}/DB_PASSWORD`, {
        token: session,
        json: { value: second, expectedVersion: 1 },
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 200, 200, 200, 200, 200, 409]);
    for (const answer of answers)
      for (const value of [first, second, patched]) expect(answer.text).not.toContain(value);
    const read = await call(service, 'GET', `${path}/DB_PASSWORD?version=2`, { token: session });
    expect(read.body.data.value).toBe(second);
    const exported = await call(service, 'GET', `/api/v1/projects/${projectId}/environments/development/export`, {
      token: session,
    });
    expect(exported.body.data).toEqual({ DB_PASSWORD: first });
    const shared = `canary-shared-${randomUUID()}`;
    const sealed = await sealShare(shared);
    const share = await call(service, 'POST', '/api/v1/shares', {
      token: session,
      json: { ciphertext: sealed.ciphertext },
    });
    const revealed = await call(service, 'POST', `/api/v1/shares/${share.body.data.id}/reveal`, { token: session });
    expect(await openShare(revealed.body.data.ciphertext, sealed.key)).toBe(shared);
    for (const line of lines) {
      for (const value of [first, second, patched, shared, sealed.key, sealed.ciphertext])
        expect(line).not.toContain(value);
    }
  });

  it('refuses a ciphertext moved to another secret with 500, logging the item and never a value', async () => {
    const session = await sessionFor(service, uniqueEmail('moved'));
    const projectId = await createProject(service, session);
    const path = `/api/v1/projects/${projectId}/environments/development/secrets`;
    const value = `canary-moved-${randomUUID()}`;
    remember(value);
    await call(service, 'PUT', `${path}/SOURCE`, { token: session, json: { value } });
    await call(service, 'PUT', `${path}/TARGET`, { token: session, json: { value: 'target' } });
    const source = await documentClient.send(
      new GetCommand({
        TableName: tableName,
        Key: secretHeadKey(projectId, 'development', 'SOURCE'),
        ConsistentRead: true,
      }),
    );
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName,
        Key: secretHeadKey(projectId, 'development', 'TARGET'),
        UpdateExpression: 'SET ciphertext = :moved',
        ExpressionAttributeValues: { ':moved': source.Item?.ciphertext },
      }),
    );
    const before = lines.length;
    const refused = await call(service, 'GET', `${path}/TARGET`, { token: session });
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual({ success: false, error: 'Internal server error' });
    const logged = lines.slice(before).join('\n');
    expect(logged).toContain(`${projectId}/development/TARGET version 1`);
    expect(logged).not.toContain(value);
    expect((await call(service, 'GET', `${path}/SOURCE`, { token: session })).body.data.value).toBe(value);
  });

  it('forgets a secret 30 days after its delete: no history, no restore, and its name starts again at 1', async () => {
    const session = await sessionFor(service, uniqueEmail('expiry'));
    const projectId = await createProject(service, session);
    const path = `/api/v1/projects/${projectId}/environments/development/secrets/OLD_KEY`;
    // A session expires within the hour, a token of no expiry does not: it acts across the month.
    const { rawToken: token } = await createToken(service, session, { name: 'm', scopes: ['admin'], ttlDays: null });
    await call(service, 'PUT', path, { token: session, json: { value: 'one' } });
    await call(service, 'PUT', path, { token, json: { value: 'two' } });
    expect((await call(service, 'DELETE', path, { token })).status).toBe(200);
    const day = 24 * 60 * 60 * 1000;
    setClock({ now: () => new Date(Date.now() + 29 * day) });
    expect((await call(service, 'GET', `${path}/versions`, { token })).body.data).toHaveLength(3);
    setClock({ now: () => new Date(Date.now() + 30 * day + 60_000) });
    const history = await call(service, 'GET', `${path}/versions`, { token });
    expect([history.status, history.body.error]).toEqual([404, 'Secret not found']);
    const restore = await call(service, 'POST', `${path}/restore`, { token, json: { version: 1 } });
    expect([restore.status, restore.body.error]).toEqual([404, 'Secret not found']);
    const again = await call(service, 'PUT', path, { token, json: { value: 'new life' } });
    expect([again.status, again.body.data.version]).toEqual([201, 1]);
    const versions = await call(service, 'GET', `${path}/versions`, { token });
    expect(versions.body.data.map((entry: { version: number }) => entry.version)).toEqual([1]);
    const stored = await documentClient.send(
      new GetCommand({
        TableName: tableName,
        Key: secretHeadKey(projectId, 'development', 'OLD_KEY'),
        ConsistentRead: true,
      }),
    );
    expect(stored.Item?.ttl).toBeUndefined();
  });

  it('holds no raw token or session JWT anywhere in the table', async () => {
    // One scan of the shared table: it holds every integration file's items, so each scan is slow.
    const table = JSON.stringify(await scanTable(endpoint, tableName));
    expect(findSecrets(table)).toEqual([]);
    for (const secret of secrets) expect(table).not.toContain(secret);
  });
});

describe('no secret in the audit events npm start shows and keeps', () => {
  let started: NpmService | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'hygiene-events-'));
  afterAll(async () => {
    await started?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints and appends every kind of event without a raw token, hash or JWT', async () => {
    started = await startNpmService({ DATA_DIR: dataDir });
    const npm = started;
    const email = uniqueEmail('events');
    const session = await devSession(npm, email);
    const created = await call(npm, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'events', scopes: ['admin'] },
    });
    expect([created.status, created.text]).toEqual([201, expect.any(String)]);
    const raw = created.body.data.rawToken as string;
    const project = await call(npm, 'POST', '/api/v1/projects', { token: raw, json: { name: 'p' } });
    await call(npm, 'GET', '/api/v1/tokens', { token: raw, from: '127.0.0.2' });
    await call(npm, 'DELETE', `/api/v1/tokens/${created.body.data.id}`, { token: session });
    expect(project.status).toBe(201);
    const value = `canary-kept-${randomUUID()}`;
    const secretPath = `/api/v1/projects/${project.body.data.projectId}/environments/production/secrets/API_KEY`;
    expect((await call(npm, 'PUT', secretPath, { token: session, json: { value } })).status).toBe(201);
    expect((await call(npm, 'GET', secretPath, { token: session })).body.data.value).toBe(value);
    const shared = `canary-shared-${randomUUID()}`;
    const sealed = await sealShare(shared);
    const share = await call(npm, 'POST', '/api/v1/shares', {
      token: session,
      json: { ciphertext: sealed.ciphertext },
    });
    expect(share.status).toBe(201);
    const revealed = await call(npm, 'POST', `/api/v1/shares/${share.body.data.id}/reveal`, { token: session });
    expect(await openShare(revealed.body.data.ciphertext, sealed.key)).toBe(shared);

    const file = join(dataDir, 'events.jsonl');
    const wanted = [
      'token.created',
      'project.created',
      'token.denied',
      'token.revoked',
      'secret.created',
      'secret.read',
      'share.created',
      'share.revealed',
    ];
    const types = () =>
      existsSync(file)
        ? readFileSync(file, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => (JSON.parse(line) as { type: string }).type)
        : [];
    // The stream is polled: wait until all of them are there (the test's time limit bounds the wait).
    while (!wanted.every((type) => types().includes(type))) await new Promise((resolve) => setTimeout(resolve, 100));

    const kept = readFileSync(file, 'utf8');
    const printed = npm
      .output()
      .stdout.split('\n')
      .filter((line) => line.startsWith('event: '))
      .join('\n');
    expect(printed.split('\n').length).toBeGreaterThanOrEqual(wanted.length);
    for (const text of [kept, printed]) {
      expect(findSecrets(text)).toEqual([]);
      expect(text).not.toContain(raw.slice(9));
      expect(text).not.toContain(session.split('.')[2]);
      expect(text).not.toMatch(/secretHash|"hash"/);
      expect(text).not.toContain(value);
      for (const kept of [shared, sealed.key, sealed.ciphertext]) expect(text).not.toContain(kept);
    }
  });
});

describe('no secret value in what DynamoDB Local keeps on disk', () => {
  let started: NpmService | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'hygiene-disk-'));
  afterAll(async () => {
    await started?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores only ciphertext, and no share’s key, in the database files of npm start’s own DynamoDB Local', async () => {
    started = await startNpmService({ DATA_DIR: dataDir, DYNAMODB_ENDPOINT: undefined });
    const npm = started;
    const session = await devSession(npm, uniqueEmail('disk'));
    const project = await call(npm, 'POST', '/api/v1/projects', { token: session, json: { name: 'disk' } });
    const value = `canary-disk-${randomUUID()}`;
    const path = `/api/v1/projects/${project.body.data.projectId}/environments/production/secrets/API_KEY`;
    expect((await call(npm, 'PUT', path, { token: session, json: { value } })).status).toBe(201);
    expect((await call(npm, 'GET', path, { token: session })).body.data.value).toBe(value);
    const shared = `canary-shared-${randomUUID()}`;
    const sealed = await sealShare(shared);
    const share = await call(npm, 'POST', '/api/v1/shares', {
      token: session,
      json: { ciphertext: sealed.ciphertext, maxViews: 2 },
    });
    const revealed = await call(npm, 'POST', `/api/v1/shares/${share.body.data.id}/reveal`, { token: session });
    expect(await openShare(revealed.body.data.ciphertext, sealed.key)).toBe(shared);
    await npm.stop();
    started = undefined;
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const full = join(dir, name);
        return statSync(full).isDirectory() ? files(full) : [full];
      });
    const stored = files(dataDir);
    expect(stored.map((name) => name.slice(dataDir.length))).toContainEqual(expect.stringMatching(/\.db$/));
    for (const name of stored) {
      const content = readFileSync(name);
      for (const kept of [value, shared, sealed.key]) {
        expect([name, kept, content.includes(Buffer.from(kept))]).toEqual([name, kept, false]);
      }
    }
  }, 180_000);
});
