import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  bodyOf,
  createClient,
  dataOf,
  SecretsApiError,
  type SecretsClient,
  SecretsNetworkError,
  ShareKeyError,
} from '@client/index';
import { ErrorText } from '@contract/errors';
import type { LocalService } from '../../local/service';
import { createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';

/** The typed client (client/) against `npm start`: every method, the API's errors, retries, timeout and cache. */

let service: LocalService;
let apiUrl: string;
beforeAll(async () => {
  service = await startService();
  apiUrl = `http://127.0.0.1:${service.port}`;
});
afterAll(async () => {
  await service.close();
});

const ENV = 'development';

/** A new user's project and an admin token of theirs, bound to this machine's address. */
const projectWithToken = async () => {
  const session = await sessionFor(service, uniqueEmail('client'));
  const projectId = await createProject(service, session);
  const { rawToken } = await createToken(service, session, { name: 'client', scopes: ['admin'] });
  return { projectId, token: rawToken };
};

/** A local HTTP server for the test's own answers; answers its URL and a way to close it. */
const serve = async (handler: Parameters<typeof createServer>[1]) => {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close };
};

/** What a thrown value is, for assertions on an awaited rejection. */
const thrown = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
};

describe('createClient against npm start', () => {
  let client: SecretsClient;
  let projectId: string;
  let token: string;
  beforeAll(async () => {
    ({ projectId, token } = await projectWithToken());
    client = createClient({ apiUrl, token });
  });

  it('lists the environments of a project', async () => {
    const environments = await client.environments(projectId);
    expect(environments.map((environment) => environment.name).sort()).toEqual([
      'development',
      'production',
      'staging',
    ]);
  });

  it('sets, lists, gets, changes, exports, deletes, shows the history of and restores secrets', async () => {
    const created = await client.set(projectId, ENV, 'DATABASE_URL', 'postgres://one');
    expect(created).toEqual({
      created: true,
      secret: expect.objectContaining({ name: 'DATABASE_URL', version: 1 }),
    });
    const updated = await client.set(projectId, ENV, 'DATABASE_URL', 'postgres://two', { expectedVersion: 1 });
    expect(updated).toEqual({ created: false, secret: expect.objectContaining({ version: 2 }) });

    expect((await client.list(projectId, ENV)).map(({ name, version }) => ({ name, version }))).toEqual([
      { name: 'DATABASE_URL', version: 2 },
    ]);
    expect(await client.get(projectId, ENV, 'DATABASE_URL')).toMatchObject({ value: 'postgres://two', version: 2 });
    expect(await client.get(projectId, ENV, 'DATABASE_URL', 1)).toMatchObject({ value: 'postgres://one', version: 1 });

    const changed = await client.change(projectId, ENV, {
      set: { API_KEY: 'k-1', DATABASE_URL: 'postgres://three' },
      expectedVersions: { DATABASE_URL: 2 },
    });
    expect(changed.map(({ name, version, deleted }) => ({ name, version, deleted }))).toEqual(
      expect.arrayContaining([
        { name: 'API_KEY', version: 1, deleted: false },
        { name: 'DATABASE_URL', version: 3, deleted: false },
      ]),
    );
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-1', DATABASE_URL: 'postgres://three' });

    await client.delete(projectId, ENV, 'DATABASE_URL');
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-1' });
    const history = await client.history(projectId, ENV, 'DATABASE_URL');
    expect(history.map(({ version, deleted }) => ({ version, deleted }))).toEqual([
      { version: 4, deleted: true },
      { version: 3, deleted: false },
      { version: 2, deleted: false },
      { version: 1, deleted: false },
    ]);

    expect(await client.restore(projectId, ENV, 'DATABASE_URL', 2)).toMatchObject({ name: 'DATABASE_URL', version: 5 });
    expect(await client.get(projectId, ENV, 'DATABASE_URL')).toMatchObject({ value: 'postgres://two', version: 5 });
    expect((await client.change(projectId, ENV, { delete: ['API_KEY'] }))[0]).toMatchObject({ deleted: true });
    expect(await client.export(projectId, ENV)).toEqual({ DATABASE_URL: 'postgres://two' });
  });

  it('compares two environments and promotes secrets from one to the other', async () => {
    await client.change(projectId, 'staging', { set: { PROMOTED: 'p-1', STAYS: 's-1' } });
    expect(await client.compare(projectId, 'staging', 'production')).toEqual([
      { name: 'PROMOTED', status: 'only-from', fromVersion: 1, toVersion: null },
      { name: 'STAYS', status: 'only-from', fromVersion: 1, toVersion: null },
    ]);

    const promoted = await client.promote(projectId, 'staging', 'production', ['PROMOTED']);
    expect(promoted).toEqual([expect.objectContaining({ name: 'PROMOTED', version: 1, deleted: false })]);
    expect((await client.compare(projectId, 'staging', 'production')).map((entry) => entry.status)).toEqual([
      'same',
      'only-from',
    ]);
    await client.set(projectId, 'staging', 'PROMOTED', 'p-2');
    const refused = await thrown(
      client.promote(projectId, 'staging', 'production', ['PROMOTED'], { expectedVersions: { PROMOTED: 0 } }),
    );
    expect(refused).toMatchObject({ status: 409, error: ErrorText.secretConflict });
    expect(await client.get(projectId, 'production', 'PROMOTED')).toMatchObject({ value: 'p-1', version: 1 });
  });

  it('calls any other route through `api`, typed from the document', async () => {
    const members = await dataOf(
      client.api.GET('/api/v1/projects/{projectId}/members', { params: { path: { projectId } } }),
    );
    expect(members).toEqual([expect.objectContaining({ role: 'owner' })]);
    const page = await bodyOf(client.api.GET('/api/v1/audit-events', { params: { query: { limit: '1' } } }));
    expect(page).toMatchObject({ success: true, data: [expect.objectContaining({ type: expect.any(String) })] });
    expect(
      await thrown(bodyOf(client.api.DELETE('/api/v1/tokens/{id}', { params: { path: { id: 'AAAAAAAAAAAA' } } }))),
    ).toMatchObject({ status: 404 });
  });

  it("throws the API's exact error text, status and details, never the token", async () => {
    const missing = await thrown(client.get(projectId, ENV, 'NOT_THERE'));
    expect(missing).toBeInstanceOf(SecretsApiError);
    expect(missing).toMatchObject({ status: 404, error: ErrorText.secretNotFound, message: ErrorText.secretNotFound });

    await client.set(projectId, ENV, 'GUARDED', 'one');
    const conflict = await thrown(client.set(projectId, ENV, 'GUARDED', 'two', { expectedVersion: 7 }));
    expect(conflict).toMatchObject({ status: 409, error: ErrorText.secretConflict });

    const invalid = (await thrown(
      client.set(projectId, ENV, 'GUARDED', 'x', { expectedVersion: -1 }),
    )) as SecretsApiError;
    expect(invalid).toMatchObject({ status: 400, error: ErrorText.validation });
    expect(invalid.details).toEqual([expect.objectContaining({ path: 'expectedVersion' })]);

    const refused = await thrown(
      createClient({ apiUrl, token: `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}` }).export(projectId, ENV),
    );
    expect(refused).toMatchObject({ status: 401, error: ErrorText.unauthorized });
    for (const error of [missing, conflict, invalid, refused] as Error[]) {
      expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain(token.slice(9));
    }
  });

  it('answers a 403 with its text for a token from another address', async () => {
    const session = await sessionFor(service, uniqueEmail('bound'));
    const own = await createProject(service, session);
    const { rawToken } = await createToken(service, session, {
      name: 'elsewhere',
      scopes: ['admin'],
      allowedIps: ['192.0.2.1'],
    });
    const error = await thrown(createClient({ apiUrl, token: rawToken }).export(own, ENV));
    expect(error).toMatchObject({ status: 403, error: ErrorText.wrongIp });
  });
});

describe('createClient share and reveal', () => {
  /** A person's client that shares and reveals, and every request it sends. */
  const personClient = async (label: string) => {
    const email = uniqueEmail(label);
    const session = await sessionFor(service, email);
    const { rawToken } = await createToken(service, session, {
      name: 'shares',
      scopes: ['read:secrets', 'write:secrets'],
    });
    const sent: { url: string; body: string }[] = [];
    const client = createClient({
      apiUrl,
      token: rawToken,
      fetch: async (request) => {
        sent.push({ url: request.url, body: await request.clone().text() });
        return globalThis.fetch(request);
      },
    });
    return { email, client, sent };
  };

  it('seals the value before sending it, and reveals it with the key the share answered', async () => {
    const { email, client, sent } = await personClient('sharer');
    const value = 'shared — 🔑\nsecond line';
    const { share, key } = await client.share(value, { maxViews: 2, expiresInHours: 3 });
    expect(share).toEqual({
      id: expect.stringMatching(/^shr_[0-9A-Za-z]{22}$/),
      expiresAt: expect.any(String),
      maxViews: 2,
      viewsLeft: 2,
      recipients: null,
    });
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(sent[0]?.body ?? '{}')).toEqual({
      ciphertext: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
      maxViews: 2,
      expiresInHours: 3,
    });
    expect(JSON.stringify(sent)).not.toContain(key);

    expect(await client.reveal(share.id, key)).toEqual({
      value,
      viewsLeft: 1,
      expiresAt: share.expiresAt,
      createdBy: { email },
    });
    expect(await client.reveal(share.id, key)).toMatchObject({ value, viewsLeft: 0 });
    expect(await thrown(client.reveal(share.id, key))).toMatchObject({ status: 404, error: ErrorText.shareNotFound });
  });

  it('refuses a key without a share key’s form before any request, so no view is spent', async () => {
    const { client, sent } = await personClient('sharer');
    const { share, key } = await client.share('kept');
    const before = sent.length;
    for (const cut of [key.slice(0, -1), '', `${key}A`]) {
      expect(await thrown(client.reveal(share.id, cut))).toBeInstanceOf(ShareKeyError);
    }
    expect(sent.length).toBe(before);
    expect((await client.reveal(share.id, key)).value).toBe('kept');
  });

  it('throws a ShareKeyError for another share’s key once the reveal has spent the view', async () => {
    const { client } = await personClient('sharer');
    const { share } = await client.share('first', { maxViews: 2 });
    const other = await client.share('second');
    const error = await thrown(client.reveal(share.id, other.key));
    expect(error).toBeInstanceOf(ShareKeyError);
    expect((error as Error).message).toMatch(/does not open this share.*this reveal spent a view: 1 left/);
  });

  it('limits the reveal to the recipients: another person gets Share not found', async () => {
    const sharer = await personClient('sharer');
    const recipient = await personClient('recipient');
    const outsider = await personClient('outsider');
    const { share, key } = await sharer.client.share('for one', { recipients: [recipient.email] });
    expect(share.recipients).toEqual([recipient.email]);
    expect(await thrown(outsider.client.reveal(share.id, key))).toMatchObject({
      status: 404,
      error: ErrorText.shareNotFound,
    });
    expect((await recipient.client.reveal(share.id, key)).value).toBe('for one');
  });
});

describe('createClient retries', () => {
  it('tries a 503 again after the seconds its Retry-After asks, then answers the success, a write too', async () => {
    const { projectId, token } = await projectWithToken();
    await createClient({ apiUrl, token }).set(projectId, ENV, 'API_KEY', 'k-1');
    const arrivals: number[] = [];
    // A proxy whose first answer is the API's 503; the next request goes through to the service.
    const proxy = await serve((req, res) => {
      arrivals.push(Date.now());
      if (arrivals.length === 1 || arrivals.length === 3) {
        res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': arrivals.length === 1 ? '1' : '0' });
        res.end(JSON.stringify({ success: false, error: ErrorText.unavailable }));
        return;
      }
      const upstream = httpRequest(
        { host: '127.0.0.1', port: service.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    try {
      const values = await createClient({ apiUrl: proxy.url, token }).export(projectId, ENV);
      expect(values).toEqual({ API_KEY: 'k-1' });
      expect(arrivals).toHaveLength(2);
      expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(1000);
      // A write is sent again whole: its body survives the retry.
      const written = await createClient({ apiUrl: proxy.url, token }).set(projectId, ENV, 'API_KEY', 'k-2');
      expect(written.secret.version).toBe(2);
      expect(arrivals).toHaveLength(4);
      expect(await createClient({ apiUrl, token }).get(projectId, ENV, 'API_KEY')).toMatchObject({ value: 'k-2' });
    } finally {
      await proxy.close();
    }
  });

  it('tries 429 and 503 at most `retries` more times, then throws the last answer; other statuses at once', async () => {
    let status = 503;
    let count = 0;
    const server = await serve((_req, res) => {
      count++;
      res.writeHead(status, { 'Content-Type': 'application/json', 'Retry-After': '0' });
      res.end(JSON.stringify({ success: false, error: status === 503 ? ErrorText.unavailable : 'Too many requests' }));
    });
    try {
      const client = createClient({ apiUrl: server.url, token: 'svc_live_x', retries: 2 });
      expect(await thrown(client.list('prj_A', ENV))).toMatchObject({ status: 503, error: ErrorText.unavailable });
      expect(count).toBe(3);
      [status, count] = [429, 0];
      expect(await thrown(client.list('prj_A', ENV))).toMatchObject({ status: 429 });
      expect(count).toBe(3);
      [status, count] = [500, 0];
      expect(await thrown(client.list('prj_A', ENV))).toMatchObject({ status: 500 });
      expect(count).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('createClient without an answer', () => {
  it('gives up after `timeoutMs` with a SecretsNetworkError that says so', async () => {
    const silent = await serve(() => {
      // Never answers.
    });
    try {
      const started = Date.now();
      const error = await thrown(
        createClient({ apiUrl: silent.url, token: 'svc_live_never-shown', timeoutMs: 300 }).export('prj_A', ENV),
      );
      expect(error).toBeInstanceOf(SecretsNetworkError);
      expect(error).toMatchObject({ timedOut: true, message: expect.stringContaining('within 300 ms') });
      expect((error as Error).message).not.toContain('never-shown');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await silent.close();
    }
  });

  it('throws a SecretsNetworkError with its cause when nothing listens, and does not retry it', async () => {
    const closed = await serve(() => undefined);
    await closed.close();
    let attempts = 0;
    const error = await thrown(
      createClient({
        apiUrl: closed.url,
        token: 'svc_live_never-shown',
        fetch: (request) => {
          attempts++;
          return fetch(request);
        },
      }).export('prj_A', ENV),
    );
    expect(error).toBeInstanceOf(SecretsNetworkError);
    expect(error).toMatchObject({ timedOut: false, message: expect.stringContaining('ECONNREFUSED') });
    expect((error as Error).cause).toBeDefined();
    expect(attempts).toBe(1);
  });
});

describe('createClient with cacheTtlMs', () => {
  it('answers export from memory until the time to live is over, or a write through it', async () => {
    const { projectId, token } = await projectWithToken();
    let clock = 1_000_000;
    let requests = 0;
    const client = createClient({
      apiUrl,
      token,
      cacheTtlMs: 60_000,
      now: () => clock,
      fetch: (request) => {
        requests++;
        return fetch(request);
      },
    });
    await client.set(projectId, ENV, 'API_KEY', 'k-1');
    requests = 0;

    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-1' });
    const kept = await client.export(projectId, ENV);
    kept.API_KEY = 'changed by the caller';
    clock += 59_999;
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-1' });
    expect(requests).toBe(1);

    // Another writer's change shows once the time to live is over.
    await createClient({ apiUrl, token }).set(projectId, ENV, 'API_KEY', 'k-2');
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-1' });
    clock += 1;
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-2' });
    expect(requests).toBe(2);

    // A write through the client itself drops the kept copy at once.
    await client.set(projectId, ENV, 'API_KEY', 'k-3');
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-3' });
    expect(requests).toBe(4);
  });

  it('revalidates the kept export once its time to live is over: a 304 keeps it, and records no read', async () => {
    const { projectId, token } = await projectWithToken();
    let clock = 1_000_000;
    const sent: { ifNoneMatch: string | null; status: number }[] = [];
    const client = createClient({
      apiUrl,
      token,
      cacheTtlMs: 60_000,
      now: () => clock,
      fetch: async (request) => {
        const response = await fetch(request);
        if (request.url.endsWith('/export')) {
          sent.push({ ifNoneMatch: request.headers.get('If-None-Match'), status: response.status });
        }
        return response;
      },
    });
    await client.set(projectId, ENV, 'API_KEY', 'k-1');
    const reads = async () =>
      (
        await dataOf(
          client.api.GET('/api/v1/projects/{projectId}/audit-events', {
            params: { path: { projectId }, query: { type: 'secret.read' } },
          }),
        )
      ).length;

    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-1' });
    const readsBefore = await reads();
    clock += 60_000;
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-1' });
    clock += 59_999;
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-1' });

    expect(sent).toEqual([
      { ifNoneMatch: null, status: 200 },
      { ifNoneMatch: expect.stringMatching(/^"/), status: 304 },
    ]);
    expect(await reads()).toBe(readsBefore);

    // Another writer's change: the revalidation answers the new values, and they are kept.
    await createClient({ apiUrl, token }).set(projectId, ENV, 'API_KEY', 'k-2');
    clock += 1;
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-2' });
    expect(sent[2]).toEqual({ ifNoneMatch: sent[1]?.ifNoneMatch, status: 200 });
    clock += 60_000;
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-2' });
    expect(sent[3]?.status).toBe(304);
    expect(sent[3]?.ifNoneMatch).not.toBe(sent[1]?.ifNoneMatch);
  });

  it('drops the kept export of the environment a promote through it writes', async () => {
    const { projectId, token } = await projectWithToken();
    const client = createClient({ apiUrl, token, cacheTtlMs: 60_000 });
    await client.set(projectId, 'staging', 'API_KEY', 'k-new');
    await client.set(projectId, ENV, 'API_KEY', 'k-old');
    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-old' });

    await client.promote(projectId, 'staging', ENV, ['API_KEY']);

    expect(await client.export(projectId, ENV)).toEqual({ API_KEY: 'k-new' });
  });

  it('reads each time without cacheTtlMs', async () => {
    const { projectId, token } = await projectWithToken();
    let requests = 0;
    const client = createClient({
      apiUrl,
      token,
      fetch: (request) => {
        requests++;
        return fetch(request);
      },
    });
    await client.export(projectId, ENV);
    await client.export(projectId, ENV);
    expect(requests).toBe(2);
  });
});
