import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalService } from '../../local/service';
import { call, createProject, sessionFor, startService, uniqueEmail } from './harness';

/**
 * No value leaves unless its read is recorded: with the `secret.read` event's write refused by
 * DynamoDB, a read and an export answer an error, never the value. A proxy in front of DynamoDB Local
 * refuses that one write while `refuseReads` is set, as a throttled or failing table would.
 */

const upstream = new URL(process.env.TEST_DYNAMODB_ENDPOINT ?? 'http://127.0.0.1:1');
let refuseReads = false;
let proxy: Server;
let service: LocalService;

const refusal = JSON.stringify({
  __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message: 'The level of configured provisioned throughput for the table was exceeded',
});

beforeAll(async () => {
  proxy = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = String(incoming.headers['x-amz-target'] ?? '');
      if (refuseReads && target.endsWith('.PutItem') && body.includes('"secret.read"')) {
        outgoing.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' }).end(refusal);
        return;
      }
      const forwarded = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.end(body);
    });
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  service = await startService({ dynamoEndpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await service.close();
  proxy.close();
});

describe('a read whose record cannot be written', () => {
  it('answers 503 without the value, for one secret and for an export, and the value again once it can', async () => {
    const session = await sessionFor(service, uniqueEmail('unrecorded'));
    const projectId = await createProject(service, session);
    const base = `/api/v1/projects/${projectId}/environments/development`;
    const value = 'unrecorded-value-4711';
    expect((await call(service, 'PUT', `${base}/secrets/KEY`, { token: session, json: { value } })).status).toBe(201);

    refuseReads = true;
    const read = await call(service, 'GET', `${base}/secrets/KEY`, { token: session });
    const exported = await call(service, 'GET', `${base}/export`, { token: session });
    refuseReads = false;
    for (const reply of [read, exported]) {
      expect([reply.status, reply.body.error]).toEqual([503, 'Service temporarily unavailable']);
      expect(reply.text).not.toContain(value);
    }
    expect((await call(service, 'GET', `${base}/secrets/KEY`, { token: session })).body.data.value).toBe(value);
  });
});
