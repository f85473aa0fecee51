import { randomUUID } from 'node:crypto';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AuditEvent } from '@contract/audit';
import { noticeIndexName } from '@contract/table-schema';
import { tokenKey } from '@lambdas/data/keys';
import { setClock } from '@lambdas/domain/clock';
import { noticeDays } from '@lambdas/domain/expiry-notice';
import type { ExpiryNoticeRun } from '@lambdas/use-cases/expiry-notices';
import { createTable } from '../../local/create-table';
import type { LocalService } from '../../local/service';
import { type CountingProxy, holdUntilAnswered, startCountingProxy } from '../../measure/dynamo-proxy';
import { call, createToken, sessionFor, startService, uniqueEmail, withPatientClient } from './harness';

/**
 * Expiry notices in time, in process against DynamoDB Local: the job is run at chosen moments of a
 * token's life (the use case takes the time; the scheduled function reads the moved clock). The table
 * is this file's own, so that moving time sends no notice for another file's tokens. DynamoDB is behind
 * the counting proxy, which makes overlapping runs really overlap.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
const ENDPOINT = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const tableName = `expiry-timing-${randomUUID().slice(0, 8)}`;
const dynamo = new DynamoDBClient({ endpoint: ENDPOINT });
/** Generous: in process, overlapping runs read within a second; only a failure waits this long. */
const OVERLAP_MS = 30_000;

let proxy: CountingProxy;
let service: LocalService;
let sendExpiryNotices: (now: Date) => Promise<ExpiryNoticeRun>;
let sendExpiryNoticesHandler: () => Promise<void>;
beforeAll(async () => {
  await createTable(ENDPOINT, tableName);
  proxy = await startCountingProxy(ENDPOINT);
  service = await startService({ tableName, dynamoEndpoint: proxy.endpoint });
  // The data layer reads the table's name when loaded, after the service has set it.
  ({ sendExpiryNotices } = (await import('@lambdas/composition/expiry-notices')).expiryNotices);
  ({ sendExpiryNoticesHandler } = await import('@lambdas/events/send-expiry-notices'));
});
afterAll(async () => {
  setClock();
  await service?.close();
  await proxy?.close();
  dynamo.destroy();
});
afterEach(() => setClock());

/** A token of `ttlDays` for a new user, with its owner's session. */
const newToken = async (ttlDays: number) => {
  const session = await sessionFor(service, uniqueEmail('expiry'));
  const token = await createToken(service, session, { name: `${ttlDays} days`, scopes: ['admin'], ttlDays });
  return { session, id: token.id, expiresAt: Date.parse(token.expiresAt ?? '') };
};

/** The days left of each notice a run sent for `tokenId` (other tests' tokens may get theirs too). */
const runAt = async (time: number, tokenId: string): Promise<number[]> =>
  (await sendExpiryNotices(new Date(time))).sent
    .filter((event) => event.target.tokenId === tokenId)
    .map((event) => event.details.daysLeft ?? 0);

const trail = async (session: string): Promise<AuditEvent[]> =>
  (await call(service, 'GET', '/api/v1/audit-events?type=token.expiring', { token: session })).body.data;

/** The token's item as stored (undefined once revoked). */
const storedToken = async (tokenId: string) => {
  const { Item } = await dynamo.send(
    new GetItemCommand({ TableName: tableName, Key: marshall(tokenKey(tokenId)), ConsistentRead: true }),
  );
  return Item && unmarshall(Item);
};

describe('expiry notices over a token’s life', () => {
  it('sends the 7-day notice once 7 days are left and the 1-day notice once 1 is left, each once', async () => {
    const token = await newToken(30);
    expect(await runAt(token.expiresAt - 7 * DAY_MS - MINUTE_MS, token.id)).toEqual([]);
    expect(await runAt(token.expiresAt - 7 * DAY_MS + MINUTE_MS, token.id)).toEqual([7]);
    expect(await runAt(token.expiresAt - 7 * DAY_MS + MINUTE_MS, token.id)).toEqual([]);
    expect(await runAt(token.expiresAt - 2 * DAY_MS, token.id)).toEqual([]);
    expect(await runAt(token.expiresAt - DAY_MS + MINUTE_MS, token.id)).toEqual([1]);
    expect(await runAt(token.expiresAt - MINUTE_MS, token.id)).toEqual([]);
    expect(await runAt(token.expiresAt + MINUTE_MS, token.id)).toEqual([]);

    const events = await trail(token.session);
    expect(events.map((event) => event.details.daysLeft)).toEqual([1, 7]);
    expect(events[1]).toMatchObject({
      type: 'token.expiring',
      time: new Date(token.expiresAt - 7 * DAY_MS + MINUTE_MS).toISOString(),
      actor: { via: 'system', userId: null },
      target: { tokenId: token.id },
      details: { name: '30 days', expiresAt: new Date(token.expiresAt).toISOString(), daysLeft: 7 },
    });
    // The last notice takes the token out of the notice index.
    expect(await storedToken(token.id)).not.toHaveProperty('GSI2PK');
  });

  it('still sends a notice that fell due while runs were missed, days ago', async () => {
    const token = await newToken(30);
    // Three days of missed runs: the 7-day notice fell due in an earlier day's partition.
    expect(await runAt(token.expiresAt - 4 * DAY_MS, token.id)).toEqual([7]);
    expect(await runAt(token.expiresAt - DAY_MS + 5 * 60 * MINUTE_MS, token.id)).toEqual([1]);
  });

  it('sends only the nearer notice to a run so late that both are due', async () => {
    const token = await newToken(30);
    expect(await runAt(token.expiresAt - DAY_MS / 2, token.id)).toEqual([1]);
    expect(await runAt(token.expiresAt - DAY_MS / 4, token.id)).toEqual([]);
    expect((await trail(token.session)).map((event) => event.details.daysLeft)).toEqual([1]);
  });

  it('gives a token that lives less than 7 days only the 1-day notice', async () => {
    const token = await newToken(3);
    expect(await runAt(Date.now(), token.id)).toEqual([]);
    expect(await runAt(token.expiresAt - 2 * DAY_MS, token.id)).toEqual([]);
    expect(await runAt(token.expiresAt - DAY_MS + MINUTE_MS, token.id)).toEqual([1]);
  });

  it('sends nothing for a revoked token', async () => {
    const token = await newToken(7);
    expect((await call(service, 'DELETE', `/api/v1/tokens/${token.id}`, { token: token.session })).status).toBe(200);
    expect(await runAt(Date.now(), token.id)).toEqual([]);
    expect(await trail(token.session)).toEqual([]);
  });

  it('sends nothing for a token that expired before a run reached it, and drops it from the notice index', async () => {
    const token = await newToken(1);
    expect(await storedToken(token.id)).toHaveProperty('GSI2PK');
    expect(await runAt(token.expiresAt + MINUTE_MS, token.id)).toEqual([]);
    expect(await trail(token.session)).toEqual([]);
    expect(await storedToken(token.id)).not.toHaveProperty('GSI2PK');
  });

  it('sends nothing for a token a rotation replaced, and its replacement its own notices', async () => {
    const token = await newToken(7);
    const rotated = await call(service, 'POST', `/api/v1/tokens/${token.id}/rotate`, {
      token: token.session,
      json: { graceHours: 24 },
    });
    expect(rotated.status).toBe(201);
    const replacement = rotated.body.data.id as string;
    const sent = (await sendExpiryNotices(new Date())).sent.filter((event) =>
      [token.id, replacement].includes(event.target.tokenId ?? ''),
    );
    // The replacement lives 7 days from now, like the old one from its creation: its 7-day notice is due.
    expect(sent.map((event) => [event.target.tokenId, event.details.daysLeft])).toEqual([[replacement, 7]]);
    expect((await trail(token.session)).map((event) => event.target.tokenId)).toEqual([replacement]);
    expect(await storedToken(token.id)).not.toHaveProperty('GSI2PK');
  });

  it('sends each notice once when runs overlap', async () => {
    const tokens = [await newToken(7), await newToken(7), await newToken(1), await newToken(1)];
    const now = new Date();
    // Every run reads every day of the notice index before any writes, so each finds every notice
    // still due: only the condition on the token keeps a notice from going out twice.
    const overlap = holdUntilAnswered(
      proxy,
      'TransactWriteItems',
      (forwarded) => forwarded.operation === 'Query' && forwarded.index === noticeIndexName,
      4 * noticeDays(now).length,
      OVERLAP_MS,
    );
    // The writes wait for every run's reads, which on a busy machine outlasts the service's one-second
    // request timeout: the client, not what this test is about, waits as long as the barrier may.
    let runs: ExpiryNoticeRun[];
    try {
      runs = await withPatientClient(
        () => Promise.all(Array.from({ length: 4 }, () => sendExpiryNotices(now))),
        OVERLAP_MS,
      );
    } finally {
      overlap.release();
    }
    expect(await overlap.reached).toBe(true);
    const ours = runs
      .flatMap((run) => run.sent)
      .filter((event) => tokens.some((token) => token.id === event.target.tokenId))
      .map((event) => `${event.target.tokenId} ${event.details.daysLeft}`)
      .sort();
    expect(ours).toEqual(
      [`${tokens[0]?.id} 7`, `${tokens[1]?.id} 7`, `${tokens[2]?.id} 1`, `${tokens[3]?.id} 1`].sort(),
    );
    for (const token of tokens) expect(await trail(token.session)).toHaveLength(1);
  });

  it('runs as the scheduled function at the time it is invoked', async () => {
    const token = await newToken(30);
    setClock({ now: () => new Date(token.expiresAt - 7 * DAY_MS + 60 * MINUTE_MS) });
    await sendExpiryNoticesHandler();
    // Back to now, for the session that reads the trail.
    setClock();
    expect((await trail(token.session)).map((event) => [event.target.tokenId, event.details.daysLeft])).toEqual([
      [token.id, 7],
    ]);
  });
});
