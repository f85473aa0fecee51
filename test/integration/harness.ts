import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
  DynamoDBDocumentClient,
  PutCommand,
} from '@aws-sdk/lib-dynamodb';
import { type AuditEvent, DEFAULT_AUDIT_RETENTION_DAYS } from '@contract/audit';
import { SAMPLE_WORLD } from '@contract/route';
import { routes } from '@contract/routes';
import type { Scope } from '@contract/scopes';
import { tableSchema } from '@contract/table-schema';
import { type AuditTrails, auditEventItem } from '@lambdas/data/audit-item';
import { expiryNoticeKeys, tokenKey, tokenListKeys, tokenSlotsKey } from '@lambdas/data/keys';
import { firstNoticeDue } from '@lambdas/domain/expiry-notice';
import { mintToken } from '@lambdas/domain/token-format';
import type { CognitoCallEvent } from '@lambdas/events/offboard-user';
import { decodeJwt } from 'jose';
import { LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS, setDynamoRequestTimeout } from '../../local/dynamodb-patience';
import { type LocalService, startLocalService } from '../../local/service';
import { assertDocumentedReply } from './api-contract';

/**
 * The per-credential limit of a test's service unless it asks for another: test files send many
 * requests with one token or session, and only the rate-limit test means to meet the limit.
 */
const TEST_RATE_LIMIT_PER_MINUTE = 1_000_000;

/**
 * A started local service for one test file: DynamoDB Local of the global setup, gateway on a free port.
 * Its DynamoDB client waits for each answer as `npm start`'s does, not the deployed function's one second:
 * on a busy machine DynamoDB Local, shared by every file that runs at once, can take longer, and a test
 * must fail on what it checks, not on the machine's load. The deployed timeout's own answers are tested
 * with it: faults.test.ts starts its service without this harness, late-answers.test.ts sets it back.
 */
export const startService = async (
  overrides: {
    dynamoEndpoint?: string;
    tableName?: string;
    dashboardOrigin?: string;
    rateLimitPerMinute?: number;
  } = {},
): Promise<LocalService> => {
  const dynamoEndpoint = overrides.dynamoEndpoint ?? process.env.TEST_DYNAMODB_ENDPOINT;
  const tableName = overrides.tableName ?? process.env.TEST_TABLE_NAME;
  if (!dynamoEndpoint || !tableName) throw new Error('integration tests need the global setup');
  const service = await startLocalService({
    dynamoEndpoint,
    tableName,
    port: 0,
    dashboardOrigin: overrides.dashboardOrigin,
    rateLimitPerMinute: overrides.rateLimitPerMinute ?? TEST_RATE_LIMIT_PER_MINUTE,
  });
  setDynamoRequestTimeout(LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS);
  return service;
};

/**
 * Every line the service writes to stdout or stderr from now on (its logger's JSON lines), kept in the
 * returned list instead of printed; `jest.restoreAllMocks()` puts the streams back.
 */
export const captureOutput = (): string[] => {
  const lines: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      return true;
    });
  }
  return lines;
};

/** An HTTP answer with its body parsed. */
export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read fields of arbitrary response bodies
  readonly body: any;
}

/** Options of one request. */
export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Serialised as JSON with `Content-Type: application/json` unless `rawBody` is given. */
  readonly json?: unknown;
  readonly rawBody?: string | Buffer;
  /** Extra headers, as a list so that one name may repeat. */
  readonly headers?: readonly [string, string][];
  /** Local address to connect from (127.0.0.2 is another client IP than 127.0.0.1). */
  readonly from?: string;
  /** Address of the service (default: ::1 when `from` is IPv6, else 127.0.0.1). */
  readonly host?: string;
}

/**
 * Sends one real HTTP request to the service. A reply to a documented route must match the API
 * document (status, required headers, body schema), else the call fails (api-contract.ts).
 */
export const call = (
  service: Pick<LocalService, 'port'>,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> =>
  new Promise((resolve, reject) => {
    // Node sends one header line per array element, so a name may repeat.
    const headers: Record<string, string[]> = {};
    const add = (name: string, value: string) => {
      headers[name] = [...(headers[name] ?? []), value];
    };
    if (options.token !== undefined) add('Authorization', `Bearer ${options.token}`);
    let payload: Buffer | undefined;
    if (options.rawBody !== undefined) payload = Buffer.from(options.rawBody);
    else if (options.json !== undefined) {
      payload = Buffer.from(JSON.stringify(options.json));
      add('Content-Type', 'application/json');
    }
    for (const [name, value] of options.headers ?? []) add(name, value);
    if (payload) add('Content-Length', String(payload.length));
    const req = httpRequest(
      {
        // A client on an IPv6 address reaches the service over IPv6 loopback.
        host: options.host ?? (options.from?.includes(':') ? '::1' : '127.0.0.1'),
        port: service.port,
        method,
        path,
        // Node takes `Host` only as a string; one value sent as a string is the same header line.
        headers: Object.fromEntries(
          Object.entries(headers).map(([name, values]) => [name, values.length === 1 ? values[0] : values]),
        ),
        localAddress: options.from,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          const reply = { status: res.statusCode ?? 0, headers: res.headers, text, body };
          try {
            assertDocumentedReply(method, path, reply);
          } catch (error) {
            reject(error);
            return;
          }
          resolve(reply);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

/** A session from a running service's development identity provider, over HTTP (e.g. a spawned `npm start`). */
export const devSession = async (service: Pick<LocalService, 'port'>, email: string): Promise<string> =>
  (await call(service, 'POST', '/_dev/idp/token', { json: { email } })).body.token as string;

/** A unique e-mail, so test files never see each other's data. */
export const uniqueEmail = (label = 'user'): string => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** A session for an e-mail from the development identity provider (its first request records the profile). */
export const sessionFor = async (service: LocalService, email: string): Promise<string> => service.idp.issue(email);

/**
 * A request that arranges a test rather than being what it checks: a 503 (DynamoDB Local too slow on a
 * busy machine) is sent again after its Retry-After and a random part of a second, as a client would,
 * a few times at most. What a test checks it sends with {@link call}, whose 503 stays an answer.
 */
export const arrange = async (
  service: Pick<LocalService, 'port'>,
  method: string,
  path: string,
  options: CallOptions = {},
  attempts = 5,
): Promise<Reply> => {
  const reply = await call(service, method, path, options);
  if (reply.status !== 503 || attempts <= 1) return reply;
  await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 1000));
  return arrange(service, method, path, options, attempts - 1);
};

/**
 * A person who has signed in: a unique e-mail (`label` in it), a session, and their first request made
 * (which records their profile, so others can add them by e-mail); with their user id.
 */
export const signedIn = async (service: LocalService, label: string) => {
  const email = uniqueEmail(label);
  const session = await sessionFor(service, email);
  const first = await arrange(service, 'GET', '/api/v1/projects', { token: session });
  if (first.status !== 200) throw new Error(`the first request of ${email} answered ${first.status}`);
  return { email, session, userId: String(decodeJwt(session).sub) };
};

/**
 * Runs `fn` with the service's DynamoDB client waiting up to `ms` for each answer instead of the five
 * seconds of {@link startService}: for a step that holds requests at the proxy, or counts each call once,
 * where a busy machine's late answer would otherwise be sent again.
 */
export const withPatientClient = async <T>(fn: () => Promise<T>, ms = 60_000): Promise<T> => {
  setDynamoRequestTimeout(ms);
  try {
    return await fn();
  } finally {
    setDynamoRequestTimeout(LOCAL_DYNAMODB_REQUEST_TIMEOUT_MS);
  }
};

/** Creates an API token through the API and returns its create response data. */
export const createToken = async (
  service: LocalService,
  session: string,
  body: Record<string, unknown> = { name: 'ci', scopes: ['admin'] },
  from?: string,
) => {
  const reply = await arrange(service, 'POST', '/api/v1/tokens', { token: session, json: body, from });
  if (reply.status !== 201) throw new Error(`token create failed: ${reply.status} ${reply.text}`);
  return reply.body.data as { id: string; rawToken: string; displayPrefix: string; expiresAt: string | null };
};

/** One token as the owner's list shows it (`undefined` when it is not listed). */
export const listedToken = async (service: Pick<LocalService, 'port'>, owner: string, tokenId: string) =>
  ((await call(service, 'GET', '/api/v1/tokens', { token: owner })).body.data as Record<string, unknown>[]).find(
    (entry) => entry.id === tokenId,
  );

/** Creates a project as the session's user and returns its id. */
export const createProject = async (service: LocalService, session: string, name = 'Project'): Promise<string> => {
  const reply = await arrange(service, 'POST', '/api/v1/projects', { token: session, json: { name } });
  if (reply.status !== 201) throw new Error(`project create failed: ${reply.status} ${reply.text}`);
  return reply.body.data.projectId as string;
};

/** Well-formed path parameters: the route contracts' sample requests. */
const SAMPLE_PARAMS: Readonly<Record<string, string>> = Object.assign(
  {},
  ...routes.map((route) => route.sample(SAMPLE_WORLD).params ?? {}),
);

/**
 * A concrete path for a route template, with well-formed sample parameters: those of the first route
 * of that path, as `npm run smoke` fills them (another route's sample may name another environment).
 */
export const samplePath = (template: string): string => {
  const own = routes.find((route) => route.path === template)?.sample(SAMPLE_WORLD).params ?? {};
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = own[name] ?? SAMPLE_PARAMS[name];
    if (!value) throw new Error(`no sample for path parameter ${name}`);
    return value;
  });
};

/** Puts `items` into the table 25 at a time, sending again what DynamoDB left unprocessed. */
const batchPut = async (client: DynamoDBDocumentClient, tableName: string, items: readonly object[]) => {
  for (let i = 0; i < items.length; i += 25) {
    let pending: WriteRequests | undefined = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending && pending.length > 0) {
      const reply: BatchWriteCommandOutput = await client.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: pending } }),
      );
      pending = reply.UnprocessedItems?.[tableName];
    }
  }
};

/**
 * Writes audit events straight into DynamoDB Local, each as the service's own event writer builds its
 * item (`auditEventItem`), in both its trails: a trail of hundreds of events costs a few batch writes
 * instead of hundreds of transactions through the API.
 */
export const seedAuditEvents = async (
  tableName: string,
  events: readonly { readonly event: AuditEvent; readonly trails: AuditTrails }[],
): Promise<void> => {
  const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('seedAuditEvents needs the global setup');
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
  try {
    await batchPut(
      client,
      tableName,
      events.map(({ event, trails }) => auditEventItem(event, trails, DEFAULT_AUDIT_RETENTION_DAYS)),
    );
  } finally {
    client.destroy();
  }
};

/** What `seedTokens` writes for each token. */
export interface SeedOptions {
  readonly scopes?: readonly Scope[];
  /** Days until expiry, counted from now; `null` never expires (the default). */
  readonly ttlDays?: number | null;
  readonly boundIp?: string;
  /** Default: the table of the global setup. */
  readonly tableName?: string;
}

/** Days an expired token stays listed before TTL deletion, as the token repository writes it. */
const EXPIRED_RETENTION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];

/**
 * Writes `count` live tokens of the session's user straight into DynamoDB Local, with the slot item
 * that counts them against the limit, as if they had been created through the API: a fixture of 100
 * tokens costs a few batch writes instead of 100 requests, whose time on a busy machine made tests
 * time out. Only for a user who has no token yet (the slot item is written whole). The tokens are
 * created one millisecond apart, oldest first; answers their ids in that order.
 */
export const seedTokens = async (session: string, count: number, options: SeedOptions = {}): Promise<string[]> => {
  const userId = decodeJwt(session).sub;
  const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
  const tableName = options.tableName ?? process.env.TEST_TABLE_NAME;
  if (!userId || !endpoint || !tableName) throw new Error('seedTokens needs a session and the global setup');
  const start = Date.now() - count;
  const ttlDays = options.ttlDays ?? null;
  const tokens = Array.from({ length: count }, (_, i) => {
    const minted = mintToken();
    const createdAt = new Date(start + i).toISOString();
    const expiresAt = ttlDays === null ? null : start + i + ttlDays * DAY_MS;
    const noticeDue = firstNoticeDue(createdAt, expiresAt === null ? null : new Date(expiresAt).toISOString());
    return {
      ...tokenKey(minted.tokenId),
      ...tokenListKeys(userId, createdAt, minted.tokenId),
      ...(noticeDue !== null && expiryNoticeKeys(noticeDue, minted.tokenId)),
      entity: 'Token',
      ...(expiresAt === null
        ? {}
        : { [tableSchema.timeToLiveAttribute]: Math.floor((expiresAt + EXPIRED_RETENTION_DAYS * DAY_MS) / 1000) }),
      tokenId: minted.tokenId,
      userId,
      name: 'seeded',
      scopes: options.scopes ?? ['admin'],
      secretHash: minted.hash,
      boundIp: options.boundIp ?? '127.0.0.1',
      displayPrefix: minted.displayPrefix,
      createdAt,
      expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      lastUsedAt: null,
    };
  });
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint }));
  try {
    await batchPut(client, tableName, tokens);
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...tokenSlotsKey(userId),
          entity: 'TokenSlots',
          slots: Object.fromEntries(
            tokens.map((token) => [token.tokenId, token.expiresAt === null ? 0 : Date.parse(token.expiresAt)]),
          ),
          version: 1,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } finally {
    client.destroy();
  }
  return tokens.map((token) => token.tokenId);
};

/**
 * An EventBridge event of a CloudTrail record of a Cognito user-pool call, as AWS documents them:
 * the user name masked, the user's `sub` in `additionalEventData`.
 */
export const cognitoEvent = (eventName: string, sub: string | undefined, errorCode?: string): CognitoCallEvent => ({
  version: '0',
  id: `event-${eventName}-${sub}`,
  'detail-type': 'AWS API Call via CloudTrail',
  source: 'aws.cognito-idp',
  account: '123456789012',
  time: '2026-11-23T10:00:00Z',
  region: 'eu-west-1',
  resources: [],
  detail: {
    eventSource: 'cognito-idp.amazonaws.com',
    eventName,
    ...(errorCode && { errorCode }),
    ...({
      eventVersion: '1.08',
      requestParameters: { userPoolId: 'eu-west-1_Example', username: 'HIDDEN_FOR_SECURITY_REASONS' },
    } as object),
    ...(sub !== undefined && { additionalEventData: { sub } }),
  },
});
