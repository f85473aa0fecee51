import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook } from '@lambdas/outbound/webhook-sender';

/** The delivery's HTTP client against a real receiver: the pinned address, no redirect, the timeout. */

let server: Server;
let port: number;
const hosts: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    hosts.push(request.headers.host ?? '');
    if (request.url === '/slow') return; // never answers
    if (request.url === '/moved') {
      response.writeHead(302, { Location: '/elsewhere' }).end();
      return;
    }
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const delivery = (path: string, timeoutMs = 5_000) => ({
  // A name that resolves nowhere: only the pinned address can reach the receiver.
  url: new URL(`http://receiver.invalid:${port}${path}`),
  address: '127.0.0.1',
  headers: { 'Content-Type': 'application/json' },
  body: '{"id":"evt_1"}',
  timeoutMs,
});

describe('sendWebhook', () => {
  it('connects to the checked address, never looking the name up again, and keeps the name as Host', async () => {
    expect(await sendWebhook(delivery('/in'))).toEqual({ statusCode: 204 });
    expect(hosts.at(-1)).toBe(`receiver.invalid:${port}`);
  });

  it('answers a redirect as its status, without following it', async () => {
    const before = hosts.length;
    expect(await sendWebhook(delivery('/moved'))).toEqual({ statusCode: 302 });
    expect(hosts.length).toBe(before + 1);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    expect(await sendWebhook(delivery('/slow', 300))).toEqual({ error: 'Timed out after 300 ms' });
  });
});
