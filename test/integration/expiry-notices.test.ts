import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEvent } from '@contract/audit';
import { noticeIndexName } from '@contract/table-schema';
import { noticeDays } from '@lambdas/domain/expiry-notice';
import { EVENTS_FILE } from '../../local/event-log';
import { type CountingProxy, holdUntilAnswered, startCountingProxy } from '../../measure/dynamo-proxy';
import { until } from '../../measure/until';
import { call, devSession, seedTokens, uniqueEmail } from './harness';
import { type NpmService, runScript, startNpmService } from './npm-start';

/**
 * Expiry notices, black box: `npm start` serves the API and prints its event log, and
 * `npm run expiry-notices` (`bin/expiry-notices.ts`) runs the hourly job once against its table, as a
 * developer would run both. Its DynamoDB is behind the counting proxy, which makes overlapping runs
 * really overlap. Tokens of 7 days and of 1 day have that little left at once, so their
 * notices are due as soon as they exist. Timing (late runs, thresholds, expired and replaced tokens)
 * is in expiry-notices-timing.test.ts, with a moved clock.
 */

const TEST_MS = 240_000;
/** Generous too: overlapping runs start (a tsx process each) and read within seconds. */
const OVERLAP_MS = 90_000;
/** A run's own limit: the longest hold on its writes, then a minute to finish. */
const RUN_MS = OVERLAP_MS + 60_000;

let proxy: CountingProxy;
let service: NpmService;
let dataDir: string;
const tableName = `expiry-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'expiry-notices-'));
  proxy = await startCountingProxy(process.env.TEST_DYNAMODB_ENDPOINT ?? '');
  service = await startNpmService({ DATA_DIR: dataDir, TABLE_NAME: tableName, DYNAMODB_ENDPOINT: proxy.endpoint });
}, TEST_MS);
afterAll(async () => {
  await service?.stop();
  await proxy?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, TEST_MS);

/** One run of the job against npm start's table, as the command npm start prints. */
const runJob = () =>
  runScript('expiry-notices', [], { DYNAMODB_ENDPOINT: proxy.endpoint, TABLE_NAME: tableName }, RUN_MS);

/** The notices a run printed, as `tokenId daysLeft`, sorted. */
const printedNotices = (stdout: string): string[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('token.expiring '))
    .map((line) => {
      const [, tokenId, daysLeft] = /^token\.expiring (\S+) .*: (\d+) days? or less left/.exec(line) ?? [];
      return `${tokenId} ${daysLeft}`;
    })
    .sort();

/** The same of events, whatever printed or stored them. */
const noticesOf = (events: readonly AuditEvent[]): string[] =>
  events
    .filter((event) => event.type === 'token.expiring')
    .map((event) => `${event.target.tokenId} ${event.details.daysLeft}`)
    .sort();

const createToken = async (session: string, name: string, ttlDays: number | null): Promise<string> => {
  const reply = await call(service, 'POST', '/api/v1/tokens', {
    token: session,
    json: { name, scopes: ['admin'], ttlDays },
  });
  expect(reply.status).toBe(201);
  return reply.body.data.id as string;
};

/** The `token.expiring` events in the session user's trail. */
const trailNotices = async (session: string): Promise<AuditEvent[]> => {
  const reply = await call(service, 'GET', '/api/v1/audit-events?type=token.expiring&limit=100', { token: session });
  expect(reply.status).toBe(200);
  return reply.body.data as AuditEvent[];
};

const printedEvents = (): AuditEvent[] =>
  service
    .output()
    .stdout.split('\n')
    .filter((line) => line.startsWith('event: '))
    .map((line) => JSON.parse(line.slice('event: '.length)) as AuditEvent);

const keptEvents = (): AuditEvent[] => {
  const file = join(dataDir, EVENTS_FILE);
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AuditEvent)
    : [];
};

/**
 * The notices of `tokenIds` on the event log, printed and kept in `DATA_DIR`, once it shows one for every
 * token in both (the file is written just after the line); fails with what it saw after `WAIT_MS`.
 */
const eventLogNotices = (tokenIds: readonly string[]): Promise<{ printed: string[]; kept: string[] }> => {
  const ours = (events: AuditEvent[]) =>
    noticesOf(events.filter((event) => tokenIds.includes(event.target.tokenId ?? '')));
  const covered = (notices: string[]) =>
    new Set(notices.map((notice) => notice.split(' ')[0])).size === tokenIds.length;
  const seen = () => ({ printed: ours(printedEvents()), kept: ours(keptEvents()) });
  return until(() => {
    const now = seen();
    return covered(now.printed) && covered(now.kept) ? now : undefined;
  }, seen);
};

describe('npm run expiry-notices', () => {
  it('is the command npm start prints, with its DynamoDB and table', () => {
    expect(service.output().stdout).toContain(
      `  DYNAMODB_ENDPOINT=${proxy.endpoint} TABLE_NAME=${tableName} npm run expiry-notices\n`,
    );
  });

  it(
    'sends each due notice once when run twice: at once 7 days left for a 7-day token and 1 for a 1-day token, none for others',
    async () => {
      const session = await devSession(service, uniqueEmail('expiring'));
      const week = await createToken(session, 'a week', 7);
      const day = await createToken(session, 'a day', 1);
      // Not yet due: a 3-day token's only notice comes with 1 day left, a 30-day one's first with 7.
      const threeDays = await createToken(session, 'three days', 3);
      const month = await createToken(session, 'a month', 30);
      const never = await createToken(session, 'never', null);
      const revoked = await createToken(session, 'revoked', 7);
      expect((await call(service, 'DELETE', `/api/v1/tokens/${revoked}`, { token: session })).status).toBe(200);
      const expected = [`${week} 7`, `${day} 1`].sort();

      const first = await runJob();
      expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      expect(printedNotices(first.stdout)).toEqual(expected);
      const second = await runJob();
      expect(second.code).toBe(0);
      expect(printedNotices(second.stdout)).toEqual([]);
      expect(second.stderr).toContain('0 expiry notices due, 0 sent');

      // In the owner's trail, from the service itself, with what the token was.
      const trail = await trailNotices(session);
      expect(noticesOf(trail)).toEqual(expected);
      const weekEvent = trail.find((event) => event.target.tokenId === week);
      expect(weekEvent).toMatchObject({
        type: 'token.expiring',
        actor: {
          type: 'system',
          id: null,
          name: null,
          userId: null,
          email: null,
          via: 'system',
          tokenId: null,
          subject: null,
        },
        target: { tokenId: week, projectId: null, email: null },
        sourceIp: null,
        details: { name: 'a week', expiresAt: expect.any(String), daysLeft: 7, reason: null },
      });
      expect(weekEvent?.target.userId).toEqual(expect.any(String));

      // On the event log, as the event bus receives it: once each, printed and kept in DATA_DIR.
      expect(await eventLogNotices([week, day])).toEqual({
        printed: expected,
        kept: expected,
      });
      const others = [threeDays, month, never, revoked];
      expect(
        noticesOf([...printedEvents(), ...keptEvents()].filter((e) => others.includes(e.target.tokenId ?? ''))),
      ).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'sends each notice once when two runs overlap',
    async () => {
      // Enough notices that the two runs' writes interleave: the tokens are written straight to the table.
      const weekly = await devSession(service, uniqueEmail('weekly'));
      const daily = await devSession(service, uniqueEmail('daily'));
      const weekTokens = await seedTokens(weekly, 30, { ttlDays: 7, tableName });
      const dayTokens = await seedTokens(daily, 30, { ttlDays: 1, tableName });
      const expected = [...weekTokens.map((id) => `${id} 7`), ...dayTokens.map((id) => `${id} 1`)].sort();

      // Both runs read every day of the notice index before either writes, so each finds every notice
      // still due: only the condition on the token keeps a notice from going out twice.
      const overlap = holdUntilAnswered(
        proxy,
        'TransactWriteItems',
        (forwarded) => forwarded.operation === 'Query' && forwarded.index === noticeIndexName,
        2 * noticeDays(new Date()).length,
        OVERLAP_MS,
      );
      let runs: Awaited<ReturnType<typeof runJob>>[];
      try {
        runs = await Promise.all([runJob(), runJob()]);
      } finally {
        overlap.release();
      }
      expect(await overlap.reached).toBe(true);
      expect(runs.map((run) => run.code)).toEqual([0, 0]);
      const perRun = runs.map((run) => printedNotices(run.stdout));
      // Each run's summary: how many it found due and sent, and how many it skipped as the other's.
      console.info(`expiry notices, two overlapping runs:\n${runs.map((run) => run.stderr.trim()).join('\n')}`);
      for (const run of runs) expect(run.stderr).toContain(`${expected.length} expiry notices due`);
      expect(perRun.flat().sort()).toEqual(expected);

      expect(noticesOf([...(await trailNotices(weekly)), ...(await trailNotices(daily))])).toEqual(expected);
      expect(await eventLogNotices([...weekTokens, ...dayTokens])).toEqual({ printed: expected, kept: expected });
    },
    TEST_MS,
  );
});
