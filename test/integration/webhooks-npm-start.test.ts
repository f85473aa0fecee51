import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { until } from '../../measure/until';
import { call, devSession, uniqueEmail } from './harness';
import { type NpmService, startNpmService } from './npm-start';

/**
 * Webhooks end to end through `npm start` with `WEBHOOKS_ALLOW_LOOPBACK=1`: a receiver on 127.0.0.1, a
 * webhook registered through the API, a change made, and the delivery's signature checked by the Node
 * example of docs/api.md itself, read from the page: what a reader of the docs would write.
 */

const TEST_MS = 180_000;

/** The `verifySignature` of docs/api.md's "Webhooks" section, run as the page gives it. */
const documentedVerifier = (): ((secret: string, header: string, body: string) => boolean) => {
  const page = readFileSync(join(__dirname, '../../docs/api.md'), 'utf8');
  const section = page.slice(page.indexOf('## Webhooks'));
  const code = /Node\.js:\n\n```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (code === undefined) throw new Error('docs/api.md has no Node.js example under "## Webhooks"');
  // A module's globals that a new context lacks: require, and Node's Buffer.
  const context: { require: NodeRequire; Buffer: typeof Buffer; verifySignature?: unknown } = { require, Buffer };
  runInNewContext(`${code}\nthis.verifySignature = verifySignature;`, context);
  return context.verifySignature as (secret: string, header: string, body: string) => boolean;
};

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let receiver: Server;
let receiverPort: number;
const received: Received[] = [];
/** The status the receiver answers, for the next requests. */
let answer = 200;

let service: NpmService;
beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(answer).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverPort = (receiver.address() as AddressInfo).port;
  service = await startNpmService({ WEBHOOKS_ALLOW_LOOPBACK: '1' });
}, TEST_MS);
afterAll(async () => {
  await service?.stop();
  receiver?.close();
});

interface Delivery {
  readonly eventId: string;
  readonly outcome: string;
}

/** A list the API answers once `done` holds for it, asked again every 100 ms (deliveries are recorded after the fact). */
const listedUntil = async (
  at: NpmService,
  session: string,
  path: string,
  done: (entries: Delivery[]) => boolean,
): Promise<Delivery[]> => {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const entries = (await call(at, 'GET', path, { token: session })).body.data as Delivery[];
    if (done(entries) || Date.now() > deadline) return entries;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const deliveredOf = (type: string) => () =>
  received.find((request) => (JSON.parse(request.body) as { type: string }).type === type);

describe('webhooks under npm start with WEBHOOKS_ALLOW_LOOPBACK=1', () => {
  it(
    'says at start that loopback receivers are allowed',
    () => {
      expect(service.output().stdout).toContain('WEBHOOKS_ALLOW_LOOPBACK=1');
    },
    TEST_MS,
  );

  it(
    'delivers the events a webhook asks for, signed as docs/api.md says, and lists each delivery',
    async () => {
      const verifySignature = documentedVerifier();
      const session = await devSession(service, uniqueEmail('hooks'));
      const created = await call(service, 'POST', '/api/v1/projects', { token: session, json: { name: 'hooks' } });
      const projectId = created.body.data.projectId as string;
      const registered = await call(service, 'POST', `/api/v1/projects/${projectId}/webhooks`, {
        token: session,
        json: {
          url: `http://127.0.0.1:${receiverPort}/hooks/secrets`,
          events: ['secret.*', 'environment.updated'],
          environments: ['development'],
        },
      });
      expect(registered.status).toBe(201);
      const { id: webhookId, secret } = registered.body.data as { id: string; secret: string };

      // Staging is not among its environments: that write is not delivered, the development one is.
      for (const environment of ['staging', 'development']) {
        const written = await call(
          service,
          'PUT',
          `/api/v1/projects/${projectId}/environments/${environment}/secrets/API_KEY`,
          { token: session, json: { value: `value-in-${environment}` } },
        );
        expect(written.status).toBe(201);
      }
      const delivery = await until(deliveredOf('secret.created'), () => received);
      const event = JSON.parse(delivery.body) as { id: string; type: string; details: { environment: string } };
      expect(delivery.path).toBe('/hooks/secrets');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['secrets-event-id']).toBe(event.id);
      expect(event.details.environment).toBe('development');
      expect(delivery.body).not.toContain('value-in-');
      const signature = String(delivery.headers['secrets-signature']);
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature(secret, signature, delivery.body)).toBe(true);
      expect(verifySignature(secret, signature, delivery.body.replace('development', 'developmenT'))).toBe(false);
      expect(verifySignature(`${secret}x`, signature, delivery.body)).toBe(false);

      // A receiver's error is recorded as an attempt to make again.
      answer = 503;
      const pinged = await call(service, 'POST', `/api/v1/projects/${projectId}/webhooks/${webhookId}/ping`, {
        token: session,
      });
      expect(pinged.status).toBe(200);
      const ping = await until(deliveredOf('webhook.pinged'), () => received);
      expect(ping.headers['secrets-event-id']).toBe(pinged.body.data.eventId);
      expect(verifySignature(secret, String(ping.headers['secrets-signature']), ping.body)).toBe(true);

      const listed = await listedUntil(
        service,
        session,
        `/api/v1/projects/${projectId}/webhooks/${webhookId}/deliveries`,
        (entries) => entries.length >= 2,
      );
      expect(listed).toEqual([
        {
          time: expect.any(String),
          eventId: pinged.body.data.eventId,
          event: 'webhook.pinged',
          attempt: 1,
          statusCode: 503,
          durationMs: expect.any(Number),
          outcome: 'retrying',
          error: null,
        },
        {
          time: expect.any(String),
          eventId: event.id,
          event: 'secret.created',
          attempt: 1,
          statusCode: 200,
          durationMs: expect.any(Number),
          outcome: 'delivered',
          error: null,
        },
      ]);
      expect(received.filter((request) => request.body.includes('"staging"'))).toEqual([]);
      expect(`${service.output().stdout}${service.output().stderr}`).not.toContain(secret);
    },
    TEST_MS,
  );
});
