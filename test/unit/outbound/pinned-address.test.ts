import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PinnedGetError, pinnedGet } from '@lambdas/outbound/pinned-address';

/*
 * The pinned GET against a server on 127.0.0.2, asked for by the name `localhost` (which resolves to
 * 127.0.0.1 here, where nothing of ours listens): only a connection to the address given reaches it.
 */

const PINNED = '127.0.0.2';

let server: Server;
let port: number;
/** What the server was asked for, in order. */
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
/** Called when a request to `/hang` arrives (which is never answered). */
let onHang: () => void = () => undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ path, headers: req.headers });
    if (path === '/doc') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    } else if (path === '/moved') {
      res.writeHead(302, { location: '/doc' }).end();
    } else if (path === '/large') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(2_000)}"`);
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
    expect(seen).toEqual([{ path: '/doc', headers: expect.objectContaining({ host: `localhost:${port}` }) }]);
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

  it('fails on a body larger than the bound', async () => {
    await expect(get('/large')).rejects.toThrow('The body is larger than 1024 bytes');
  });

  it('fails when its signal ends the request', async () => {
    const controller = new AbortController();
    onHang = () => controller.abort();
    await expect(get('/hang', controller.signal)).rejects.toThrow('Timed out');
  });
});
