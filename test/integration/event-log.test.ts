import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  UpdateItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AuditEvent } from '@contract/audit';
import { tableKeys } from '@contract/table-keys';
import { listIndexName } from '@contract/table-schema';
import { auditEventKeys } from '@lambdas/data/keys';
import { createTable } from '../../local/create-table';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../local/dynamodb-local';
import { type EventLog, type EventLogOptions, startEventLog } from '../../local/event-log';
import { until } from '../../measure/until';
import { TEST_JAVA_OPTIONS } from './dynamodb-java';
import { call, devSession, uniqueEmail } from './harness';
import { type NpmService, startNpmService } from './npm-start';

/**
 * The local event log: `npm start` reads the table's stream and shows each new audit item as the
 * event bus would receive it. The audit writes are not part of these tests: each test writes
 * audit-shaped items itself, as those writes will.
 */

const TEST_MS = 180_000;
const ENDPOINT = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const dynamo = new DynamoDBClient({ endpoint: ENDPOINT });
afterAll(() => dynamo.destroy());

const sampleEvent = (userId: string): AuditEvent => ({
  id: `evt_${randomUUID()}`,
  time: new Date().toISOString(),
  type: 'token.created',
  actor: {
    type: 'user',
    id: userId,
    name: null,
    userId,
    email: 'ada@example.com',
    via: 'session',
    tokenId: null,
    subject: null,
  },
  target: {
    tokenId: `tok_${randomUUID().slice(0, 8)}`,
    projectId: null,
    userId,
    email: null,
    shareId: null,
    changeRequestId: null,
    serviceAccountId: null,
    webhookId: null,
  },
  sourceIp: '127.0.0.1',
  userAgent: 'event-log-test',
  requestId: randomUUID(),
  details: {
    name: 'ci-pipeline',
    scopes: ['read:secrets', 'admin'],
    expiresAt: null,
    role: null,
    environment: null,
    secrets: null,
    reason: null,
    replacedBy: null,
    stopsAt: null,
    daysLeft: null,
    maxViews: null,
    viewsLeft: null,
    access: null,
    needed: null,
    protected: null,
    approvals: null,
    defaultAccess: null,
    url: null,
    note: null,
  },
});

/** Writes `event` as the audit writes store it: in its user's trail, with entity and ttl. */
const putAuditEvent = async (tableName: string, event: AuditEvent): Promise<void> => {
  const userId = event.actor.userId ?? 'nobody';
  const item = { ...auditEventKeys(event, userId, 'prj_1'), entity: 'AuditEvent', ttl: 1_900_000_000, ...event };
  await dynamo.send(new PutItemCommand({ TableName: tableName, Item: marshall(item) }));
};

const newTable = async (): Promise<string> => {
  const tableName = `event-log-${randomUUID().slice(0, 8)}`;
  await createTable(ENDPOINT, tableName);
  return tableName;
};

describe('npm start’s event log', () => {
  let dataDir: string;
  let tableName: string;
  let service: NpmService | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'event-log-'));
    tableName = `event-log-${randomUUID().slice(0, 8)}`;
    service = await startNpmService({ DATA_DIR: dataDir, TABLE_NAME: tableName });
  }, TEST_MS);
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, TEST_MS);

  const printedEvents = (): unknown[] =>
    (service?.output().stdout ?? '')
      .split('\n')
      .filter((line) => line.startsWith('event: '))
      .map((line) => JSON.parse(line.slice('event: '.length)));
  const eventsFile = () => join(dataDir, 'events.jsonl');
  const keptEvents = (): unknown[] =>
    existsSync(eventsFile())
      ? readFileSync(eventsFile(), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
  const hasEvent = (events: unknown[], event: AuditEvent) =>
    events.some((seen) => (seen as AuditEvent).id === event.id);

  it(
    'prints a new audit item as one event: line holding the plain event, and appends it to DATA_DIR/events.jsonl',
    async () => {
      const userId = `user-${randomUUID()}`;
      const event = sampleEvent(userId);
      // Written last: the stream keeps order, so once it shows, everything before it has been read.
      const last = sampleEvent(userId);

      await putAuditEvent(tableName, event);
      await dynamo.send(
        new PutItemCommand({
          TableName: tableName,
          Item: marshall({ PK: `USER#${userId}`, SK: 'PROFILE', entity: 'User', id: 'not-an-event', type: 'x' }),
        }),
      );
      const { PK, SK } = auditEventKeys(event, userId, null);
      await dynamo.send(
        new UpdateItemCommand({
          TableName: tableName,
          Key: marshall({ PK, SK }),
          UpdateExpression: 'SET userAgent = :changed',
          ExpressionAttributeValues: marshall({ ':changed': 'changed' }),
        }),
      );
      await putAuditEvent(tableName, last);

      const printed = await until(
        () => (hasEvent(printedEvents(), last) ? printedEvents() : undefined),
        () => service?.output(),
      );
      expect(printed).toEqual([event, last]);
      const kept = await until(() => (hasEvent(keptEvents(), last) ? keptEvents() : undefined), keptEvents);
      expect(kept).toEqual([event, last]);
      // DynamoDB Local on a busy machine may trim a shard under the reader (TrimmedDataAccessException):
      // the log says so, reads the stream again and loses nothing (both events above, once each). A
      // retry and its recovery are all it may say.
      const said = (service?.output().stderr ?? '').split('\n').filter((line) => line.includes('Event log'));
      const recovery =
        /^Event log: (cannot read the stream of table \S+ \(.*\); retrying every \d+ ms|reading the stream of table \S+ again)\.$/;
      expect(said.filter((line) => !recovery.test(line))).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'prints the event a request writes, with the caller’s address and user agent',
    async () => {
      const email = uniqueEmail();
      const port = { port: service?.port ?? 0 };
      const session = await devSession(port, email);
      const created = await call(port, 'POST', '/api/v1/tokens', {
        token: session,
        json: { name: 'ci-pipeline', scopes: ['admin'], ttlDays: 30 },
        // As curl sends it: the name's case must not lose the agent.
        headers: [['User-Agent', 'curl/8.5.0']],
      });
      expect(created.status).toBe(201);
      const tokenId = created.body.data.id as string;

      const isTheEvent = (seen: unknown) => (seen as AuditEvent).target?.tokenId === tokenId;
      const printed = await until(
        () => printedEvents().find(isTheEvent),
        () => service?.output(),
      );
      expect(printed).toEqual({
        id: expect.stringMatching(/^evt_/),
        time: expect.any(String),
        type: 'token.created',
        actor: {
          type: 'user',
          id: expect.any(String),
          name: null,
          userId: expect.any(String),
          email,
          via: 'session',
          tokenId: null,
          subject: null,
        },
        target: {
          tokenId,
          projectId: null,
          userId: null,
          email: null,
          shareId: null,
          changeRequestId: null,
          serviceAccountId: null,
          webhookId: null,
        },
        sourceIp: '127.0.0.1',
        userAgent: 'curl/8.5.0',
        requestId: expect.any(String),
        details: expect.objectContaining({ name: 'ci-pipeline', scopes: ['admin'] }),
      });
      expect(await until(() => keptEvents().find(isTheEvent), keptEvents)).toEqual(printed);
    },
    TEST_MS,
  );
});

/**
 * A pass-through proxy to DynamoDB Local that answers every request with a 500 while it is down, and
 * keeps the operation of each request (its X-Amz-Target without the API, e.g. `GetRecords`).
 */
const startFlakyProxy = async () => {
  const target = new URL(ENDPOINT);
  let down = false;
  const operations: string[] = [];
  const server = createServer((req, res) => {
    operations.push(String(req.headers['x-amz-target'] ?? '').replace(/^.*\./, ''));
    if (down) {
      res.writeHead(500, { 'Content-Type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ __type: 'InternalServerError', message: 'the proxy is down' }));
      return;
    }
    const forward = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    operations,
    setDown: (value: boolean) => {
      down = value;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

describe('startEventLog', () => {
  const running: EventLog[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((log) => log.stop()));
  });

  const start = async (
    tableName: string,
    endpoint = ENDPOINT,
    pace: Pick<EventLogOptions, 'pollMs' | 'idlePollMs'> = {},
  ) => {
    const events: AuditEvent[] = [];
    const warnings: string[] = [];
    const log = await startEventLog({
      endpoint,
      tableName,
      sink: (event) => {
        events.push(event);
      },
      warn: (line) => warnings.push(line),
      ...pace,
    });
    running.push(log);
    const waitFor = (event: AuditEvent) =>
      until(
        () => (events.some((seen) => seen.id === event.id) ? events : undefined),
        () => ({ events, warnings }),
      );
    return { events, warnings, waitFor, nudge: () => log.nudge() };
  };

  /** Runs `test` with a proxy in front of DynamoDB Local, closed once the logs reading through it have stopped. */
  const withProxy = async (test: (proxy: Awaited<ReturnType<typeof startFlakyProxy>>) => Promise<void>) => {
    const proxy = await startFlakyProxy();
    try {
      await test(proxy);
    } finally {
      await Promise.all(running.splice(0).map((log) => log.stop()));
      await proxy.close();
    }
  };

  it(
    'shows the events written after it started, not those from before',
    async () => {
      const tableName = await newTable();
      const before = sampleEvent('user-1');
      const after = sampleEvent('user-1');
      await putAuditEvent(tableName, before);
      const log = await start(tableName);
      await putAuditEvent(tableName, after);
      expect(await log.waitFor(after)).toEqual([after]);
      expect(log.warnings).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'follows the table to a new stream and reads it from its beginning',
    async () => {
      const tableName = await newTable();
      const log = await start(tableName);
      const first = sampleEvent('user-1');
      await putAuditEvent(tableName, first);
      await log.waitFor(first);

      // Turning the stream off and on closes its shard and opens a new stream: a shard the log did
      // not know at start, as DynamoDB's shard rollover makes.
      await dynamo.send(
        new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }),
      );
      await dynamo.send(
        new UpdateTableCommand({ TableName: tableName, StreamSpecification: tableKeys.StreamSpecification }),
      );
      const second = sampleEvent('user-1');
      await putAuditEvent(tableName, second);
      expect(await log.waitFor(second)).toEqual([first, second]);
    },
    TEST_MS,
  );

  it(
    'reads a quiet stream less and less often, and again within its short pause once nudged',
    async () => {
      const tableName = await newTable();
      await withProxy(async (proxy) => {
        const log = await start(tableName, proxy.endpoint, { pollMs: 150, idlePollMs: 60_000 });
        const reads = () => proxy.operations.filter((operation) => operation === 'GetRecords').length;
        const started = Date.now();
        // The start read once; each empty read since doubled the pause: 150, 300, ... 4800 ms before the
        // seventh read (less 50 ms: the first pause began just before `started`), and the eighth would
        // come 9600 ms after it.
        await until(
          () => (reads() >= 7 ? true : undefined),
          () => proxy.operations,
        );
        expect(Date.now() - started).toBeGreaterThanOrEqual(150 + 300 + 600 + 1200 + 2400 + 4800 - 50);
        const event = sampleEvent('user-1');
        await putAuditEvent(tableName, event);
        const written = Date.now();
        log.nudge();
        await log.waitFor(event);
        // Unnudged, it would show with the eighth read, 9.6 s after the seventh.
        expect(Date.now() - written).toBeLessThan(4_800);
      });
    },
    TEST_MS,
  );

  it(
    'tells a failed read in one line, and resumes with the events written meanwhile',
    async () => {
      const tableName = await newTable();
      await withProxy(async (proxy) => {
        const log = await start(tableName, proxy.endpoint);
        const first = sampleEvent('user-1');
        await putAuditEvent(tableName, first);
        await log.waitFor(first);

        proxy.setDown(true);
        await until(
          () => log.warnings[0],
          () => log.warnings,
        );
        const meanwhile = sampleEvent('user-1');
        await putAuditEvent(tableName, meanwhile);
        proxy.setDown(false);

        expect(await log.waitFor(meanwhile)).toEqual([first, meanwhile]);
        await until(
          () => log.warnings[1],
          () => log.warnings,
        );
        expect(log.warnings).toEqual([
          expect.stringMatching(
            new RegExp(`^Event log: cannot read the stream of table ${tableName} \\(.*\\); retrying every \\d+ ms\\.$`),
          ),
          `Event log: reading the stream of table ${tableName} again.`,
        ]);
      });
    },
    TEST_MS,
  );
});

describe('createTable', () => {
  // A DynamoDB Local of its own: the shared one, busy with the other test files, was seen to leave a
  // new index CREATING for over a minute, while alone it builds one in well under a second.
  let own: DynamoDbLocal;
  let ownDynamo: DynamoDBClient;
  beforeAll(async () => {
    own = await startDynamoDbLocal({ javaOptions: TEST_JAVA_OPTIONS });
    ownDynamo = new DynamoDBClient({ endpoint: own.endpoint });
  }, TEST_MS);
  afterAll(async () => {
    ownDynamo?.destroy();
    await own?.stop();
  });

  it(
    'gives a table kept from before the audit trail (no stream, only the list index) the stream and the notice index',
    async () => {
      const tableName = `no-stream-${randomUUID().slice(0, 8)}`;
      await ownDynamo.send(
        new CreateTableCommand({
          TableName: tableName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: ['PK', 'SK', 'GSI1PK', 'GSI1SK'].map((AttributeName) => ({
            AttributeName,
            AttributeType: 'S',
          })),
          KeySchema: tableKeys.KeySchema,
          GlobalSecondaryIndexes: tableKeys.GlobalSecondaryIndexes.filter((index) => index.IndexName === listIndexName),
        }),
      );
      await createTable(own.endpoint, tableName);
      const { Table: table } = await ownDynamo.send(new DescribeTableCommand({ TableName: tableName }));
      expect(table?.StreamSpecification).toEqual(tableKeys.StreamSpecification);
      expect(table?.LatestStreamArn).toEqual(expect.any(String));
      expect(
        table?.GlobalSecondaryIndexes?.map(({ IndexName, KeySchema, Projection, IndexStatus }) => ({
          IndexName,
          KeySchema,
          Projection,
          IndexStatus,
        })),
      ).toEqual(
        expect.arrayContaining(tableKeys.GlobalSecondaryIndexes.map((index) => ({ ...index, IndexStatus: 'ACTIVE' }))),
      );
      expect(table?.GlobalSecondaryIndexes).toHaveLength(tableKeys.GlobalSecondaryIndexes.length);
    },
    TEST_MS,
  );
});
