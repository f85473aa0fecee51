import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { tokenKey } from '@lambdas/data/keys';
import { setClock } from '@lambdas/domain/clock';
import type { LocalService } from '../../local/service';
import { call, createProject, createToken, devSession, sessionFor, startService, uniqueEmail } from './harness';
import { type NpmService, startNpmService } from './npm-start';
import { findSecrets, scanTable } from './secret-scan';

const endpoint = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const tableName = process.env.TEST_TABLE_NAME ?? '';
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
const lines: string[] = [];
const secrets: string[] = [];
let service: LocalService;

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr]) {
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      return true;
    });
  }
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

    const file = join(dataDir, 'events.jsonl');
    const wanted = ['token.created', 'project.created', 'token.denied', 'token.revoked'];
    const types = () =>
      existsSync(file)
        ? readFileSync(file, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => (JSON.parse(line) as { type: string }).type)
        : [];
    // The stream is polled: wait until all four are there (the test's time limit bounds the wait).
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
    }
  });
});
