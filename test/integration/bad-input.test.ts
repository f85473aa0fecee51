/**
 * A property per route, 60 odd requests each: minutes whatever its size (test/sequencer.js starts it first).
 * @slow
 */
import { randomUUID } from 'node:crypto';
import { ErrorText } from '@contract/errors';
import type { RouteContract } from '@contract/route';
import { routes } from '@contract/routes';
import { setClock } from '@lambdas/domain/clock';
import fc from 'fast-check';
import { createTable } from '../../local/create-table';
import type { LocalService } from '../../local/service';
import { type CountingProxy, startCountingProxy } from '../../measure/dynamo-proxy';
import { call, createProject, createToken, sessionFor, startService, uniqueEmail, withPatientClient } from './harness';
import { type TableScanner, tableScanner } from './secret-scan';

/**
 * Property: whatever arrives (any JSON or non-JSON body, any content type, odd path parameters and
 * headers), every answer is a documented status with the documented JSON error body, never a 5xx,
 * and a rejected request changes no record. Runs on a table of its own so the before/after
 * comparison sees only this file's requests.
 *
 * The service reaches DynamoDB through a proxy that sees every call. A request whose every call was a
 * read cannot have changed a record, so the table is scanned again only after a request that sent a
 * write (a tenth of them: most refusals write nothing), where a scan after every request took a third
 * of this file's time. This trusts that the service reaches DynamoDB only at the endpoint it is given
 * (one client, `lambdas/data/client.ts`); each route ends with one more scan, which fails if the table
 * changed since the last write the proxy saw.
 */

const RUNS_PER_ROUTE = 60;
const endpoint = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const tableName = `bad-input-${randomUUID().slice(0, 8)}`;
const ERROR_TEXTS = new Set<string>(Object.values(ErrorText));
const STATUSES = new Set([200, 201, 400, 401, 403, 404, 409, 413, 415]);
/** DynamoDB operations that change no item; any other call may have, and is followed by a scan. */
const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

let service: LocalService;
let proxy: CountingProxy;
let table: TableScanner;
const credentials: Record<string, string> = {};
let projectId = '';
let memberEmail = '';
let frozen = new Date();
const counts = { runs: 0, rejected: 0 };

const dumpTable = async (): Promise<string> =>
  JSON.stringify((await table.scan()).map((item) => JSON.stringify(item, Object.keys(item).sort())).sort());

/**
 * The table without what a refused API token leaves by design: its `token.denied` event and the mark
 * that limits those to one a minute (test/integration/audit.test.ts holds them to that).
 */
const withoutDenialRecords = (dump: string): string =>
  JSON.stringify(
    (JSON.parse(dump) as string[])
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((item) => item.type !== 'token.denied')
      .map((item) =>
        JSON.stringify(Object.fromEntries(Object.entries(item).filter(([key]) => !key.startsWith('deniedAt_')))),
      ),
  );

beforeAll(async () => {
  await createTable(endpoint, tableName);
  table = tableScanner(endpoint, tableName);
  proxy = await startCountingProxy(endpoint);
  service = await startService({ tableName, dynamoEndpoint: proxy.endpoint });
  const email = uniqueEmail('fuzz');
  credentials.session = await sessionFor(service, email);
  credentials.admin = (await createToken(service, credentials.session, { name: 'fuzz', scopes: ['admin'] })).rawToken;
  projectId = await createProject(service, credentials.session);
  memberEmail = uniqueEmail('member');
  await call(service, 'GET', '/api/v1/projects', { token: await sessionFor(service, memberEmail) });
  await call(service, 'POST', `/api/v1/projects/${projectId}/members`, {
    token: credentials.session,
    json: { email: memberEmail, role: 'member' },
  });
  // Warm-up use of both credentials records lastUsedAt and the profile; with the clock held still,
  // the authorizer has no further reason to write, so any change below comes from the request.
  await call(service, 'GET', '/api/v1/tokens', { token: credentials.admin });
  frozen = new Date();
});
// Held per test and restored after each, so that no test can leave the clock moved behind it.
beforeEach(() => setClock({ now: () => frozen }));
afterEach(() => setClock());
afterAll(async () => {
  await service.close();
  await proxy.close();
  table.close();
  console.info(`bad-input: ${counts.runs} requests, ${counts.rejected} rejected`);
});

const oddSegments = fc.oneof(
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom(
    '%2F',
    '..',
    '%2e%2e',
    '.',
    '%00',
    '%',
    '%ZZ',
    'a%2Fb',
    'x'.repeat(2048),
    encodeURIComponent('ünï@exämple.com'),
    encodeURIComponent('a@b.c/../../tokens'),
    'prj_AAAAAAAAAAAAAAAA',
    'AAAAAAAAAAAA',
  ),
);

const bodies = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc
    .record(
      {
        name: fc.oneof(fc.string(), fc.jsonValue()),
        scopes: fc.oneof(
          fc.array(fc.constantFrom('read:secrets', 'write:secrets', 'admin', 'root', '')),
          fc.jsonValue(),
        ),
        ttlDays: fc.oneof(fc.integer({ min: -5, max: 4000 }), fc.double(), fc.constant(null), fc.string()),
        email: fc.oneof(fc.emailAddress(), fc.string(), fc.jsonValue()),
        role: fc.oneof(fc.constantFrom('member', 'admin', 'owner', 'MEMBER'), fc.jsonValue()),
        extra: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.integer({ min: 15_000, max: 40_000 }).map((size) => JSON.stringify({ name: 'x'.repeat(size) })),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

const contentTypes = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonp',
  '',
);

const oddHeaders = fc.array(
  fc.tuple(
    fc.constantFrom('X-Forwarded-For', 'X-Real-IP', 'X-Amz-Security-Token', 'Cookie', 'X-Custom', 'Accept', 'Origin'),
    fc.string({ maxLength: 100 }).map((value) => value.replace(/[^\x20-\x7e]/g, '')),
  ),
  { maxLength: 3 },
);

const pathFor = (route: RouteContract, segments: string[]) => {
  let index = 0;
  return route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const odd = segments[index++];
    if (odd !== undefined && odd !== '') return odd;
    return name === 'projectId' ? projectId : name === 'email' ? encodeURIComponent(memberEmail) : 'AAAAAAAAAAAA';
  });
};

describe.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  it('answers every odd request with a documented status and error body, and changes nothing when it refuses', async () => {
    let snapshot = await dumpTable();
    // A 503 from the service's one-second DynamoDB timeout on a busy machine is not what this is about.
    await withPatientClient(() =>
      fc.assert(
        fc.asyncProperty(
          fc.constantFrom('session', 'admin'),
          fc.array(oddSegments, { maxLength: 2 }),
          bodies,
          contentTypes,
          oddHeaders,
          async (credential, segments, body, contentType, headers) => {
            const callsBefore = proxy.calls.length;
            const reply = await call(service, route.method, pathFor(route, segments), {
              token: credentials[credential],
              rawBody: body,
              headers: [
                ...(contentType === undefined ? [] : [['Content-Type', contentType] as [string, string]]),
                ...headers,
              ],
            });
            // Also a call the request started and did not await is its own, not the next request's.
            await proxy.settled();
            const wrote = proxy.calls.slice(callsBefore).some((sent) => !READS.has(sent.operation));
            const before = snapshot;
            // Kept before any assertion can fail, so that each smaller request fast-check then tries is
            // compared with the table as it found it, and the one it names changed the table itself.
            snapshot = wrote ? await dumpTable() : before;
            const after = snapshot;
            counts.runs += 1;
            expect(STATUSES.has(reply.status)).toBe(true);
            expect(reply.headers['content-type']).toBe('application/json');
            if (reply.status >= 400) {
              counts.rejected += 1;
              expect(reply.text).not.toMatch(/at \S+ \(|Error:|stack/i);
              expect(reply.body.success).toBe(false);
              expect(ERROR_TEXTS.has(reply.body.error)).toBe(true);
              expect(Object.keys(reply.body).sort()).toEqual(
                reply.body.details ? ['details', 'error', 'success'] : ['error', 'success'],
              );
              if (credential === 'admin' && reply.status === 403) {
                expect(withoutDenialRecords(after)).toBe(withoutDenialRecords(before));
              } else {
                expect(after).toBe(before);
              }
            } else {
              expect(reply.body.success).toBe(true);
            }
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      ),
    );
    // The table is as the last write the proxy saw left it.
    expect(await dumpTable()).toBe(snapshot);
  });
});
