import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorText } from '@contract/errors';
import { mintToken } from '@lambdas/domain/token-format';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createTable } from '../../local/create-table';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../local/dynamodb-local';
import { type LocalService, startLocalService } from '../../local/service';
import { until } from '../../measure/until';
import { TEST_JAVA_OPTIONS } from './dynamodb-java';
import { call, createToken, type Reply, sessionFor, uniqueEmail } from './harness';
import { scanTable } from './secret-scan';

/**
 * Faults fail closed: with DynamoDB paused (SIGSTOP) or stopped, or the identity provider's key set
 * down or slow, nothing is allowed, answers are 503 with Retry-After within a bounded time, no raw
 * error reaches the client, and the service recovers without a restart once the fault ends.
 * This file runs its own DynamoDB Local so that pausing it stalls no other test file.
 */

const TABLE = 'faults';
/** Three SDK attempts of one second each, plus back-off and the gateway's own work. */
const BOUND_MS = 8_000;

let dynamo: DynamoDbLocal;
let service: LocalService;
let jwksMode: 'up' | 'down' | 'slow' = 'up';
let jwksServer: Server;

const timed = async (request: () => Promise<Reply>) => {
  const started = Date.now();
  const reply = await request();
  return { reply, ms: Date.now() - started };
};

/** The state letter of each thread of a process, from /proc (`T`: stopped). */
const threadStates = (pid: number): string[] =>
  readdirSync(`/proc/${pid}/task`).map((task) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  });

/** Stops DynamoDB Local and waits until the signal has taken hold of every one of its threads. */
const pause = async () => {
  const { pid } = dynamo.process;
  if (pid === undefined) throw new Error('DynamoDB Local has no process id');
  dynamo.process.kill('SIGSTOP');
  await until(
    () => (threadStates(pid).every((state) => state === 'T') ? true : undefined),
    () => threadStates(pid),
  );
};

const expectUnavailable = (reply: Reply) => {
  expect(reply.status).toBe(503);
  expect(reply.headers['retry-after']).toBe('1');
  expect(reply.body).toEqual({ success: false, error: ErrorText.unavailable });
};

beforeAll(async () => {
  dynamo = await startDynamoDbLocal({ javaOptions: TEST_JAVA_OPTIONS });
  await createTable(dynamo.endpoint, TABLE);
  jwksServer = createServer((_req, res) => {
    if (jwksMode === 'down') {
      res.writeHead(500).end('down');
      return;
    }
    const send = () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(service.idp.jwks));
    if (jwksMode === 'slow') setTimeout(send, 5_000);
    else send();
  });
  jwksServer.listen(0, '127.0.0.1');
  await once(jwksServer, 'listening');
  const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
  service = await startLocalService({
    dynamoEndpoint: dynamo.endpoint,
    tableName: TABLE,
    port: 0,
    sessionJwksUrl: jwksUrl,
  });
});
afterAll(async () => {
  await service.close();
  jwksServer.closeAllConnections();
  jwksServer.close();
  await dynamo.stop();
});

describe('the identity provider’s key set', () => {
  // Runs first: the authorizer has not fetched the keys yet, so every session needs them.
  it('answers 503 while the key set endpoint fails, and recovers when it is back', async () => {
    const session = await sessionFor(service, uniqueEmail());
    jwksMode = 'down';
    expectUnavailable(await call(service, 'GET', '/api/v1/projects', { token: session }));
    jwksMode = 'slow';
    const { reply, ms } = await timed(() => call(service, 'GET', '/api/v1/projects', { token: session }));
    expectUnavailable(reply);
    expect(ms).toBeLessThan(BOUND_MS);
    jwksMode = 'up';
    expect((await call(service, 'GET', '/api/v1/projects', { token: session })).status).toBe(200);
  });
});

describe('DynamoDB paused with SIGSTOP', () => {
  it('answers 503 within a bounded time for tokens and sessions, and recovers after SIGCONT', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const { rawToken } = await createToken(service, session);
    await pause();
    try {
      for (const credential of [rawToken, session, mintToken().rawToken]) {
        const { reply, ms } = await timed(() => call(service, 'GET', '/api/v1/tokens', { token: credential }));
        expectUnavailable(reply);
        expect(ms).toBeLessThan(BOUND_MS);
      }
    } finally {
      dynamo.process.kill('SIGCONT');
    }
    expect((await call(service, 'GET', '/api/v1/tokens', { token: rawToken })).status).toBe(200);
  });

  it('answers 503 from a route handler whose own database call stalls', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const { handler } = (await import('@lambdas/routes/list-tokens')) as unknown as {
      handler: (event: APIGatewayProxyEvent, context: unknown) => Promise<APIGatewayProxyResult>;
    };
    const event = {
      resource: '/api/v1/tokens',
      path: '/api/v1/tokens',
      httpMethod: 'GET',
      headers: { Authorization: `Bearer ${session}` },
      requestContext: {
        identity: { sourceIp: '127.0.0.1' },
        authorizer: { kind: 'session', userId: 'u-1', issuedAt: '2026-11-23T10:00:00.000Z', scopes: 'admin' },
      },
    } as unknown as APIGatewayProxyEvent;
    await pause();
    let result: APIGatewayProxyResult;
    const started = Date.now();
    try {
      result = await handler(event, { getRemainingTimeInMillis: () => 10_000 });
    } finally {
      dynamo.process.kill('SIGCONT');
    }
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    expect(result.statusCode).toBe(503);
    expect(result.headers?.['Retry-After']).toBe('1');
    expect(JSON.parse(result.body)).toEqual({ success: false, error: ErrorText.unavailable });
  });
});

describe('a project create cut off midway', () => {
  it('leaves no project without its owner when DynamoDB stalls during the create', async () => {
    const session = await sessionFor(service, uniqueEmail());
    expect((await call(service, 'GET', '/api/v1/projects', { token: session })).status).toBe(200);
    const pending = Array.from({ length: 5 }, (_, i) =>
      call(service, 'POST', '/api/v1/projects', { token: session, json: { name: `cut-${i}` } }),
    );
    // Pause while the creates are on their way, so some are cut off before, during or after the write.
    await new Promise((resolve) => setTimeout(resolve, 5));
    dynamo.process.kill('SIGSTOP');
    let replies: Reply[];
    try {
      replies = await Promise.all(pending);
    } finally {
      dynamo.process.kill('SIGCONT');
    }
    for (const reply of replies) expect([201, 503]).toContain(reply.status);
    const items = await scanTable(dynamo.endpoint, TABLE);
    const projects = items.filter((item) => item.entity === 'Project');
    // Every 201 is a project in the table; a create cut off before its write left none (and may be all).
    expect(projects.length).toBeGreaterThanOrEqual(replies.filter((reply) => reply.status === 201).length);
    for (const project of projects) {
      const owner = items.find(
        (item) => item.entity === 'Member' && item.projectId === project.projectId && item.role === 'owner',
      );
      expect(owner).toBeDefined();
    }
  });
});

describe('DynamoDB stopped', () => {
  it('answers 503 at once while it is down and recovers when it is back, without a restart', async () => {
    const port = Number(new URL(dynamo.endpoint).port);
    const session = await sessionFor(service, uniqueEmail());
    await dynamo.stop();
    const { reply, ms } = await timed(() => call(service, 'GET', '/api/v1/projects', { token: session }));
    expectUnavailable(reply);
    expect(ms).toBeLessThan(BOUND_MS);

    dynamo = await startDynamoDbLocal({ port, javaOptions: TEST_JAVA_OPTIONS });
    await createTable(dynamo.endpoint, TABLE);
    expect((await call(service, 'GET', '/api/v1/projects', { token: session })).status).toBe(200);
  });
});
