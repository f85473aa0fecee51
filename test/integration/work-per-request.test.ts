/**
 * A world per route and credential: minutes whatever its size (test/sequencer.js starts it first).
 * @slow
 */
import { DynamoDBClient, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { routes } from '@contract/routes';
import type { LocalService } from '../../local/service';
import { type CountingProxy, startCountingProxy } from '../../measure/dynamo-proxy';
import {
  checkWork,
  excessOver,
  measuredCredentials,
  measureWork,
  type Work,
  type WorkCall,
  type WorkReport,
} from '../../measure/work';
import { floorFor, floorTotals } from '../../measure/work-floors';
import { startService, withPatientClient } from './harness';

/**
 * Work per request: every route and the authorizer spend no more DynamoDB calls and capacity than their
 * access pattern needs (`measure/work-floors.ts`), measured through the local gateway and a proxy that
 * records each call's consumed capacity.
 */

let service: LocalService;
let proxy: CountingProxy;
let report: WorkReport;

/**
 * The fixture's time limit grows with what it measures: ten seconds for each route and credential, each
 * measured in a world of its own of some fifteen requests. On two cores at a load average of ten the 111
 * worlds took about three seconds each, and the fixed five minutes before ran out.
 */
const FIXTURE_MS = routes.reduce((sum, route) => sum + measuredCredentials(route).length, 0) * 10_000;

beforeAll(async () => {
  proxy = await startCountingProxy(process.env.TEST_DYNAMODB_ENDPOINT ?? '');
  service = await startService({ dynamoEndpoint: proxy.endpoint });
  // Each call counted once: a late answer the client gave up on would be sent again.
  report = await withPatientClient(() => measureWork({ service, proxy }));
}, FIXTURE_MS);
afterAll(async () => {
  await service.close();
  await proxy.close();
});

describe('work per request', () => {
  it('measures every route of the route table, with a token where allowed and with a session', () => {
    const measured = report.routes.map((m) => `${m.route} ${m.credential}`).sort();
    const expected = routes
      .flatMap((route) => [
        ...(route.tokenScope === null ? [] : [`${route.method} ${route.path} token`]),
        `${route.method} ${route.path} session`,
      ])
      .sort();
    expect(measured).toEqual(expected);
  });

  it('keeps every route and the authorizer within the minimum its access pattern needs', () => {
    expect(checkWork(report)).toEqual([]);
  });

  it('reads the token with one strongly consistent GetItem of 1 RRU, and records lastUsedAt at most once a minute', () => {
    const byName = Object.fromEntries(report.authorizer.map((m) => [m.name, m.work]));
    const steady = byName['token, steady state'];
    expect(steady?.calls.map(({ operation, consistent, capacity }) => ({ operation, consistent, capacity }))).toEqual([
      { operation: 'GetItem', consistent: true, capacity: 1 },
    ]);
    const writes = (name: string) => byName[name]?.calls.filter((call) => call.operation === 'UpdateItem').length;
    expect(writes('token, first use (records lastUsedAt)')).toBe(1);
    expect(writes('token, steady state')).toBe(0);
    expect(writes('token, a minute later (records lastUsedAt)')).toBe(1);
    expect(writes('token, again within that minute')).toBe(0);
    expect(writes('token on a session-only route (403)')).toBe(0);
    const withTokens = report.routes.filter((r) => r.credential === 'token');
    expect(withTokens.length).toBeGreaterThan(0);
    for (const m of withTokens) {
      expect({ route: m.name, calls: m.authorizer.calls.map((call) => call.operation) }).toEqual({
        route: m.name,
        calls: ['GetItem'],
      });
    }
  });

  it('reads the offboarding mark on every session request and records the profile only on the first', () => {
    const byName = Object.fromEntries(report.authorizer.map((m) => [m.name, m.work]));
    expect(byName['session, first request (records the profile)']?.calls.map((call) => call.operation)).toEqual([
      'BatchGetItem',
      'TransactWriteItems',
    ]);
    expect(byName['session, steady state']?.calls.map((call) => call.operation)).toEqual(['BatchGetItem']);
  });

  it('reads one secret with one strongly consistent BatchGetItem, then writes its read event', () => {
    const reads = report.routes.filter((m) => m.subject === 'get-secret');
    expect(reads.map((m) => m.credential).sort()).toEqual(['session', 'token']);
    for (const m of reads) {
      expect(m.work.calls.map(({ operation, consistent }) => ({ operation, consistent }))).toEqual([
        { operation: 'BatchGetItem', consistent: true },
        { operation: 'PutItem' },
      ]);
    }
  });

  it('costs no DynamoDB call for a malformed credential', () => {
    expect(report.malformed.length).toBeGreaterThan(0);
    for (const m of report.malformed) {
      expect({ name: m.name, status: m.status, calls: m.work.calls }).toEqual({ name: m.name, status: 401, calls: [] });
    }
  });

  it('attributes the capacity of every call (none unmeasured)', () => {
    const all = [
      ...report.authorizer.flatMap((m) => m.work.calls),
      ...report.routes.flatMap((m) => [...m.work.calls, ...m.authorizer.calls]),
    ];
    expect(all.length).toBeGreaterThan(0);
    for (const call of all) expect(call.capacity).toBeGreaterThan(0);
  });

  it('flags a request that spends more than its floor', () => {
    const call = (operation: string, read: number, write: number, extra: Partial<WorkCall> = {}): WorkCall => ({
      operation,
      targets: ['X'],
      capacity: read + write,
      read,
      write,
      source: 'reported',
      ...extra,
    });
    const work = (...calls: WorkCall[]): Work => ({
      calls,
      totalRead: calls.reduce((sum, c) => sum + c.read, 0),
      totalWrite: calls.reduce((sum, c) => sum + c.write, 0),
    });
    const problems = (subject: string, measured: Work) => excessOver('case', subject, measured).map((e) => e.problem);
    // lastUsedAt written on a steady-state request.
    expect(
      problems('authorizer/token', work(call('GetItem', 1, 0, { consistent: true }), call('UpdateItem', 0, 2))),
    ).toEqual(['UpdateItem X is not in the pattern', '2 WRU > 0']);
    // The token read eventually consistent: cheaper, but a revoked token could pass.
    expect(problems('authorizer/token', work(call('GetItem', 0.5, 0, { consistent: false })))).toEqual([
      'GetItem X must be strongly consistent',
    ]);
    // A list read strongly consistent where eventual is enough.
    expect(problems('list-tokens', work(call('Query', 1, 0, { consistent: true })))).toEqual(['1 RRU > 0.5']);
    // A page too many.
    expect(
      problems(
        'list-projects',
        work(call('Query', 0.5, 0, { consistent: false }), call('Query', 0.5, 0, { consistent: false })),
      ),
    ).toEqual(['Query X is not in the pattern', '1 RRU > 0.5']);
  });

  it('attributes a call to the phase that started it, even when it is not awaited', async () => {
    const client = new DynamoDBClient({ endpoint: proxy.endpoint });
    try {
      const table = process.env.TEST_TABLE_NAME ?? '';
      const start = proxy.calls.length;
      let pending: Promise<unknown> = Promise.resolve();
      await proxy.withPhase('authorizer', async () => {
        pending = client.send(new GetItemCommand({ TableName: table, Key: { PK: { S: 'none' }, SK: { S: 'none' } } }));
      });
      await proxy.withPhase('route', () =>
        client.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': { S: 'none' } },
          }),
        ),
      );
      await pending;
      await proxy.settled();
      expect(proxy.calls.slice(start).map((c) => [c.operation, c.phase])).toEqual(
        expect.arrayContaining([
          ['GetItem', 'authorizer'],
          ['Query', 'route'],
        ]),
      );
      expect(proxy.calls.length - start).toBe(2);
    } finally {
      client.destroy();
    }
  });

  it('has a floor for every route: none needs no data', () => {
    // A new route that forgot its calls would have an empty floor; GET /api/v1/me reads the caller's
    // memberships for the projects they were added to.
    const empty = routes.filter((route) => floorTotals(floorFor(route.handler)).calls === 0).map((r) => r.handler);
    expect(empty).toEqual([]);
  });
});
