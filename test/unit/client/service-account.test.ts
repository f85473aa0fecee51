import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { SERVICE_HEADER } from '../../../client/aws-sign-in';
import { createClient } from '../../../client/create-client';
import { SecretsApiError, SignInRefusedError } from '../../../client/errors';
import {
  createServiceAccountClient,
  githubActionsIdToken,
  signInWithAws,
  signInWithOidc,
} from '../../../client/service-account';
import { createTokenCache, refreshMarginOf, type SignedIn } from '../../../client/token-cache';

/**
 * A service account's sign-ins in the typed client, without a service: a fake `fetch` and a clock the
 * test moves, so refreshing is checked by the clock's value, never by waiting.
 */

const API = 'https://secrets.example.com';
const SA = 'sa_0123456789abcdef';
const MINUTE = 60_000;

/** A clock at a fixed instant that the test moves. */
const clock = (start = Date.parse('2026-11-29T10:00:00.000Z')) => {
  let at = start;
  return { now: () => at, move: (ms: number) => (at += ms) };
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('refreshMarginOf', () => {
  it.each([
    [15 * MINUTE, 90_000],
    [60 * MINUTE, 6 * MINUTE],
    [5 * MINUTE, MINUTE],
    [MINUTE, 30_000],
  ])('renews a token of %d ms %d ms before it expires', (life, margin) => {
    expect(refreshMarginOf(life)).toBe(margin);
  });
});

describe('createTokenCache', () => {
  const signInFor = (time: ReturnType<typeof clock>, lifeMs = 15 * MINUTE) => {
    let count = 0;
    const signIn = jest.fn(
      async (): Promise<SignedIn> => ({
        token: `svc_live_${++count}`,
        expiresAt: new Date(time.now() + lifeMs).toISOString(),
      }),
    );
    return signIn;
  };

  it('signs in at the first ask, keeps the token, and signs in again once less than its margin is left', async () => {
    const time = clock();
    const signIn = signInFor(time);
    const cache = createTokenCache(signIn, time.now);
    expect(signIn).not.toHaveBeenCalled();
    expect(await cache.token()).toBe('svc_live_1');
    time.move(15 * MINUTE - 90_000 - 1);
    expect(await cache.token()).toBe('svc_live_1');
    time.move(1);
    expect(await cache.token()).toBe('svc_live_2');
    expect(signIn).toHaveBeenCalledTimes(2);
  });

  it('renews a 60-second token after 30 s', async () => {
    const time = clock();
    const cache = createTokenCache(signInFor(time, MINUTE), time.now);
    expect(await cache.token()).toBe('svc_live_1');
    time.move(29_999);
    expect(await cache.token()).toBe('svc_live_1');
    time.move(1);
    expect(await cache.token()).toBe('svc_live_2');
  });

  it('shares one sign-in between concurrent asks, and keeps no failed one', async () => {
    const time = clock();
    let fail = true;
    const signIn = jest.fn(async (): Promise<SignedIn> => {
      if (fail) throw new Error('refused');
      return { token: 'svc_live_ok', expiresAt: new Date(time.now() + 15 * MINUTE).toISOString() };
    });
    const cache = createTokenCache(signIn, time.now);
    await expect(Promise.all([cache.token(), cache.token()])).rejects.toThrow('refused');
    expect(signIn).toHaveBeenCalledTimes(1);
    fail = false;
    expect(await Promise.all([cache.token(), cache.token()])).toEqual(['svc_live_ok', 'svc_live_ok']);
    expect(signIn).toHaveBeenCalledTimes(2);
  });

  it('forgets a dropped token, and only that one', async () => {
    const time = clock();
    const signIn = signInFor(time);
    const cache = createTokenCache(signIn, time.now);
    await cache.token();
    cache.drop('svc_live_other');
    expect(await cache.token()).toBe('svc_live_1');
    cache.drop('svc_live_1');
    expect(await cache.token()).toBe('svc_live_2');
  });
});

/** A fake service: the sign-in route answers tokens living `lifeMs` by `time`, the secret route checks them. */
const fakeService = (
  time: ReturnType<typeof clock>,
  options: { lifeMs?: number; refuse?: boolean; takeNoToken?: boolean } = {},
) => {
  const signIns: Record<string, unknown>[] = [];
  const live = new Set<string>();
  const used: (string | null)[] = [];
  const fetch = jest.fn(async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path.endsWith('/api/v1/auth/oidc') || path.endsWith('/api/v1/auth/aws')) {
      expect(request.headers.get('Authorization')).toBeNull();
      signIns.push((await request.json()) as Record<string, unknown>);
      if (options.refuse) return json(401, { success: false, error: 'Unauthorized: Identity not accepted' });
      const token = `svc_live_${signIns.length}`;
      live.add(token);
      return json(200, {
        success: true,
        data: { token, expiresAt: new Date(time.now() + (options.lifeMs ?? 15 * MINUTE)).toISOString() },
      });
    }
    const bearer = request.headers.get('Authorization');
    used.push(bearer);
    if (options.takeNoToken || bearer === null || !live.has(bearer.replace(/^Bearer /, ''))) {
      return json(401, { success: false, error: 'Unauthorized: Missing or invalid authentication token' });
    }
    return json(200, { success: true, data: { name: 'API_KEY', value: 'v', version: 1 } });
  });
  return { fetch, signIns, live, used, options };
};

const read = (client: ReturnType<typeof createClient>) => client.get('prj_x', 'production', 'API_KEY');

describe('createServiceAccountClient', () => {
  it('signs in at the first request, not before, and sends the token as its bearer', async () => {
    const time = clock();
    const service = fakeService(time);
    const client = createServiceAccountClient({
      apiUrl: API,
      fetch: service.fetch,
      now: time.now,
      serviceAccount: { id: SA, signIn: 'oidc', token: 'workload-jwt', ttlSeconds: 600 },
    });
    expect(service.fetch).not.toHaveBeenCalled();
    expect((await read(client)).value).toBe('v');
    expect(service.signIns).toEqual([{ serviceAccountId: SA, token: 'workload-jwt', ttlSeconds: 600 }]);
    expect(service.used).toEqual(['Bearer svc_live_1']);
  });

  it('keeps the token while it has its margin, and signs in again before it expires', async () => {
    const time = clock();
    const service = fakeService(time, { lifeMs: MINUTE });
    let asked = 0;
    const client = createServiceAccountClient({
      apiUrl: API,
      fetch: service.fetch,
      now: time.now,
      serviceAccount: { id: SA, signIn: 'oidc', token: () => `workload-${++asked}`, ttlSeconds: 60 },
    });
    await read(client);
    time.move(20_000);
    await read(client);
    expect(service.signIns).toHaveLength(1);
    time.move(15_000);
    await read(client);
    // A new workload token for each sign-in (a file Kubernetes renews is read again).
    expect(service.signIns.map((body) => body.token)).toEqual(['workload-1', 'workload-2']);
    expect(service.used).toEqual(['Bearer svc_live_1', 'Bearer svc_live_1', 'Bearer svc_live_2']);
  });

  it('signs in again once when the service answers 401 to a kept token, then surfaces a second 401', async () => {
    const time = clock();
    const service = fakeService(time);
    const client = createServiceAccountClient({
      apiUrl: API,
      fetch: service.fetch,
      now: time.now,
      serviceAccount: { id: SA, signIn: 'oidc', token: 'workload-jwt' },
    });
    await read(client);
    service.live.clear();
    expect((await read(client)).value).toBe('v');
    expect(service.signIns).toHaveLength(2);
    expect(service.used).toEqual(['Bearer svc_live_1', 'Bearer svc_live_1', 'Bearer svc_live_2']);
    // The service takes no token at all: one more sign-in, then the error.
    service.options.takeNoToken = true;
    await expect(read(client)).rejects.toMatchObject({ status: 401 });
    expect(service.signIns).toHaveLength(3);
    expect(service.used.slice(3)).toEqual(['Bearer svc_live_2', 'Bearer svc_live_3']);
  });

  it('throws a refused sign-in as a SignInRefusedError naming the service account, and sends nothing else', async () => {
    const time = clock();
    const service = fakeService(time, { refuse: true });
    const client = createServiceAccountClient({
      apiUrl: API,
      fetch: service.fetch,
      now: time.now,
      serviceAccount: { id: SA, signIn: 'oidc', token: 'workload-jwt' },
    });
    const error = await read(client).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignInRefusedError);
    expect(error).toBeInstanceOf(SecretsApiError);
    expect(error).toMatchObject({ serviceAccountId: SA, status: 401, error: 'Unauthorized: Identity not accepted' });
    expect(service.used).toEqual([]);
  });

  it('refuses a token and a sign-in together', () => {
    expect(() =>
      createClient({ apiUrl: API, token: 'svc_live_x', signIn: async () => ({ token: '', expiresAt: '' }) }),
    ).toThrow('Give a token or a sign-in, not both');
  });
});

describe('signInWithAws', () => {
  it('signs sts:GetCallerIdentity for this API’s host with the given credentials and sends it, unsent to STS', async () => {
    const time = clock();
    const service = fakeService(time);
    const signedIn = await signInWithAws({
      apiUrl: `${API}/prod`,
      serviceAccountId: SA,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session' },
      fetch: service.fetch,
    });
    expect(signedIn.token).toBe('svc_live_1');
    const [body] = service.signIns as [
      { serviceAccountId: string; request: { headers: Record<string, string>; body: string } },
    ];
    expect(body.serviceAccountId).toBe(SA);
    expect(body.request.headers[SERVICE_HEADER]).toBe('secrets.example.com');
    expect(body.request.headers.Host).toBe('sts.amazonaws.com');
    expect(body.request.headers.Authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//);
    expect(body.request.headers['X-Amz-Security-Token']).toBe('session');
    expect(service.fetch.mock.calls.map(([request]) => new URL(request.url).host)).toEqual(['secrets.example.com']);
  });

  it('asks a credential provider at each sign-in, and signs for the region’s STS host', async () => {
    const time = clock();
    const service = fakeService(time);
    const provider = jest.fn(async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }));
    for (let index = 0; index < 2; index += 1) {
      await signInWithAws({
        apiUrl: API,
        serviceAccountId: SA,
        credentials: provider,
        region: 'eu-west-1',
        fetch: service.fetch,
      });
    }
    expect(provider).toHaveBeenCalledTimes(2);
    const hosts = (service.signIns as { request: { headers: Record<string, string> } }[]).map(
      (body) => body.request.headers.Host,
    );
    expect(hosts).toEqual(['sts.eu-west-1.amazonaws.com', 'sts.eu-west-1.amazonaws.com']);
  });
});

describe('signInWithOidc', () => {
  it('answers the token and its expiry; any answer but 401 is thrown as it is', async () => {
    const fetch = jest.fn(async () => json(400, { success: false, error: 'Validation failed', details: [] }));
    const error = await signInWithOidc({ apiUrl: API, serviceAccountId: SA, token: 'x', ttlSeconds: 5, fetch }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SecretsApiError);
    expect(error).not.toBeInstanceOf(SignInRefusedError);
    expect(error).toMatchObject({ status: 400, error: 'Validation failed' });
  });
});

/** A stand-in of GitHub Actions' token endpoint on a loopback port. */
const startGithub = async (answer: (url: URL, headers: IncomingHttpHeaders) => [number, string]) => {
  const requests: { url: URL; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    requests.push({ url, headers: incoming.headers });
    const [status, body] = answer(url, incoming.headers);
    outgoing.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/_apis/token?api-version=2.0`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

describe('githubActionsIdToken', () => {
  let github: Awaited<ReturnType<typeof startGithub>>;
  beforeAll(async () => {
    github = await startGithub((url, headers) =>
      headers.authorization === 'bearer request-token'
        ? [200, JSON.stringify({ value: `jwt-for-${url.searchParams.get('audience')}` })]
        : [401, '{}'],
    );
  });
  afterAll(async () => {
    await github.close();
  });

  it('asks GitHub for the audience given, with its request token, keeping its URL’s query', async () => {
    const env = { ACTIONS_ID_TOKEN_REQUEST_URL: github.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'request-token' };
    expect(await githubActionsIdToken('https://secrets.example.com/a b', env)).toBe(
      'jwt-for-https://secrets.example.com/a b',
    );
    const [asked] = github.requests.slice(-1);
    expect(asked?.url.searchParams.get('audience')).toBe('https://secrets.example.com/a b');
    expect(asked?.url.searchParams.get('api-version')).toBe('2.0');
    expect(asked?.headers.authorization).toBe('bearer request-token');
  });

  it('says what is missing or wrong, never the request token', async () => {
    await expect(githubActionsIdToken('secrets-service', {})).rejects.toThrow(/id-token: write/);
    const refused = githubActionsIdToken('secrets-service', {
      ACTIONS_ID_TOKEN_REQUEST_URL: github.url,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'wrong-token',
    });
    await expect(refused).rejects.toThrow("GitHub Actions' ID token was refused: 401");
    await expect(refused).rejects.not.toThrow(/wrong-token/);
  });

  it('gives the token to the OIDC sign-in of a service account client', async () => {
    const time = clock();
    const service = fakeService(time);
    const client = createServiceAccountClient({
      apiUrl: API,
      // GitHub is asked through the real network; the service is the fake.
      fetch: (request) => (request.url.startsWith(API) ? service.fetch(request) : globalThis.fetch(request)),
      now: time.now,
      serviceAccount: {
        id: SA,
        signIn: 'github-actions',
        audience: 'secrets-service',
        env: { ACTIONS_ID_TOKEN_REQUEST_URL: github.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'request-token' },
      },
    });
    await read(client);
    expect(service.signIns).toEqual([{ serviceAccountId: SA, token: 'jwt-for-secrets-service' }]);
  });
});
