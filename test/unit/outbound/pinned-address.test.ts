import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackAddress } from '@lambdas/domain/webhook-url';
import { PinnedGetError, pinnedGet, pinnedLookup, resolveHost } from '@lambdas/outbound/pinned-address';

/*
 * The pinned GET against a server on 127.0.0.2, asked for by the name `localhost` (which resolves to
 * 127.0.0.1 here, where nothing of ours listens): only a connection to the address given reaches it.
 */

const PINNED = '127.0.0.2';

let server: Server;
let port: number;
/** What the server was asked for, in order. */
const seen: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
/** Called when a request to `/hang` arrives (which is never answered). */
let onHang: () => void = () => undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ method: req.method ?? '', path, headers: req.headers });
    if (path === '/doc') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    } else if (path === '/moved') {
      res.writeHead(302, { location: '/doc' }).end();
    } else if (path === '/large') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(2_000)}"`);
    } else if (path === '/exact') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(1_022)}"`);
    } else if (path === '/plain') {
      res.writeHead(200).end('{}');
    } else if (path.startsWith('/status/')) {
      res.writeHead(Number(path.slice('/status/'.length))).end();
    } else if (path === '/broken') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"cut":');
      setImmediate(() => res.destroy());
    } else if (path === '/hang') {
      onHang();
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(0, PINNED);
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

beforeEach(() => {
  seen.length = 0;
});

const get = (path: string, signal = AbortSignal.timeout(5_000)) =>
  pinnedGet({
    url: new URL(`http://localhost:${port}${path}`),
    address: PINNED,
    signal,
    accept: 'application/json',
    maxBytes: 1_024,
  });

describe('pinnedGet', () => {
  it('connects to the address given, never to what the name resolves to, keeping the name as Host', async () => {
    const response = await get('/doc');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual([
      { method: 'GET', path: '/doc', headers: expect.objectContaining({ host: `localhost:${port}` }) },
    ]);
    expect(seen[0]?.headers.accept).toBe('application/json');
  });

  it('answers another status as it is, for the caller to refuse', async () => {
    const response = await get('/missing');
    expect(response.status).toBe(404);
  });

  it('fails on a redirect and does not follow it', async () => {
    await expect(get('/moved')).rejects.toThrow(PinnedGetError);
    expect(seen.map((request) => request.path)).toEqual(['/moved']);
  });

  it.each([300, 399])('fails on any 3xx (%i), naming it', async (status) => {
    await expect(get(`/status/${status}`)).rejects.toThrow(`Redirected (${status}); no redirect is followed`);
  });

  it.each([400, 599])('answers %i as it is', async (status) => {
    await expect(get(`/status/${status}`).then((response) => response.status)).resolves.toBe(status);
  });

  it('fails on a status no answer may have, at once', async () => {
    // A Response cannot hold such a status: without the check the GET would never settle.
    const settled = Promise.race([
      get('/status/600'),
      new Promise((_resolve, reject) => setTimeout(() => reject(new Error('never settled')), 10_000).unref()),
    ]);
    await expect(settled).rejects.toThrow('Answered status 600');
  });

  it('answers a 204 with no body', async () => {
    const response = await get('/status/204');
    expect([response.status, response.body]).toEqual([204, null]);
  });

  it('reads a body of exactly the bound', async () => {
    await expect(get('/exact').then((response) => response.text())).resolves.toHaveLength(1_024);
  });

  it('answers no content type where the server gave none', async () => {
    const response = await get('/plain');
    expect(response.headers.get('content-type')).toBeNull();
  });

  it('fails when the answer breaks off', async () => {
    await expect(get('/broken')).rejects.toThrow(/^The answer failed: /);
  });

  it('fails as a PinnedGetError when nothing listens at the address', async () => {
    const closed = createServer();
    closed.listen(0, PINNED);
    await once(closed, 'listening');
    const { port: unused } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, 'close');
    const failed = pinnedGet({
      url: new URL(`http://localhost:${unused}/`),
      address: PINNED,
      signal: AbortSignal.timeout(5_000),
      accept: 'application/json',
      maxBytes: 1_024,
    });
    await expect(failed).rejects.toMatchObject({
      name: 'PinnedGetError',
      message: expect.stringMatching(/^Connection failed: /),
    });
  });

  it('fails on a body larger than the bound', async () => {
    await expect(get('/large')).rejects.toThrow('The body is larger than 1024 bytes');
  });

  it('fails when its signal ends the request', async () => {
    const controller = new AbortController();
    onHang = () => controller.abort();
    await expect(get('/hang', controller.signal)).rejects.toThrow('Timed out');
  });
});

describe('resolveHost', () => {
  it('answers every address of a name, as the system resolves it', async () => {
    const addresses = await resolveHost('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !isLoopbackAddress(address))).toEqual([]);
  });
});

describe('pinnedLookup', () => {
  it('answers the pinned address whatever the name, one or all of them as asked', () => {
    const lookup = pinnedLookup(PINNED);
    const one = jest.fn();
    const all = jest.fn();
    lookup('example.com', { all: false }, one);
    lookup('example.com', { all: true }, all);
    expect(one).toHaveBeenCalledWith(null, PINNED, 4);
    expect(all).toHaveBeenCalledWith(null, [{ address: PINNED, family: 4 }]);
  });
});
