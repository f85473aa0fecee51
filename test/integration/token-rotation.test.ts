import { ErrorText } from '@contract/errors';
import { setClock } from '@lambdas/domain/clock';
import type { LocalService } from '../../local/service';
import { type CountingProxy, startCountingProxy } from '../../measure/dynamo-proxy';
import {
  call,
  createToken,
  listedToken,
  type Reply,
  seedTokens,
  sessionFor,
  startService,
  uniqueEmail,
} from './harness';

/**
 * Rotation over time, in process so that the clock can move: the grace period, a rotated token's own
 * expiry, the lifetime the replacement gets, the token limit while both live, and rotations racing
 * (DynamoDB behind the counting proxy, which lines them up). test/integration/token-lifecycle.test.ts
 * covers the rest black box against `npm start`.
 */

let proxy: CountingProxy;
let service: LocalService;
beforeAll(async () => {
  proxy = await startCountingProxy(process.env.TEST_DYNAMODB_ENDPOINT ?? '');
  service = await startService({ dynamoEndpoint: proxy.endpoint });
});
afterAll(async () => {
  setClock();
  await service?.close();
  await proxy?.close();
});
afterEach(() => setClock());

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Stops the service's clock `offsetMs` after `start` (set at the start of each test): instants the
 * service writes are then exact, however long the machine takes between requests.
 */
let start = 0;
beforeEach(() => {
  start = Date.now();
});
const clockAt = (offsetMs: number): void => setClock({ now: () => new Date(start + offsetMs) });
const at = (offsetMs: number): string => new Date(start + offsetMs).toISOString();

const rotate = (session: string, id: string, json?: unknown) =>
  call(service, 'POST', `/api/v1/tokens/${id}/rotate`, { token: session, json });

const useStatus = async (rawToken: string) =>
  (await call(service, 'GET', '/api/v1/projects', { token: rawToken })).status;

const listed = (owner: string, id: string) => listedToken(service, owner, id);

/** Whether a TransactWriteItems on its way to DynamoDB is a rotation's (it marks a token replaced). */
const isRotation = (body: Record<string, unknown>): boolean =>
  (body.TransactItems as { Update?: { UpdateExpression?: string } }[]).some((item) =>
    item.Update?.UpdateExpression?.includes('replacedBy'),
  );

describe('rotation over time', () => {
  it('keeps the old token working through the grace period and refuses it like a revoked one after', async () => {
    const email = uniqueEmail();
    clockAt(0);
    const old = await createToken(service, await sessionFor(service, email));
    const rotated = await rotate(await sessionFor(service, email), old.id, { graceHours: 6 });
    const fresh = rotated.body.data;
    expect(fresh.replaces.stopsAt).toBe(at(6 * HOUR_MS));

    clockAt(6 * HOUR_MS - 1);
    expect(await useStatus(old.rawToken)).toBe(200);
    clockAt(6 * HOUR_MS);
    const refused = await call(service, 'GET', '/api/v1/projects', { token: old.rawToken });
    expect([refused.status, refused.body.error]).toEqual([401, ErrorText.unauthorized]);
    expect(await useStatus(fresh.rawToken)).toBe(200);
    // Still listed, as replaced and stopped, until DynamoDB's TTL removes it like an expired token.
    const later = await sessionFor(service, email);
    expect(await listed(later, old.id)).toMatchObject({ replacedBy: fresh.id, stopsAt: fresh.replaces.stopsAt });
    const trail = await call(service, 'GET', '/api/v1/audit-events?type=token.rotated', { token: later });
    expect(trail.body.data).toEqual([
      expect.objectContaining({
        type: 'token.rotated',
        actor: expect.objectContaining({ via: 'session', email }),
        target: expect.objectContaining({ tokenId: old.id }),
        details: expect.objectContaining({
          name: 'ci',
          replacedBy: fresh.id,
          stopsAt: fresh.replaces.stopsAt,
          expiresAt: fresh.expiresAt,
        }),
      }),
    ]);
  });

  it('stops the old token at its own expiry when that comes before the grace period ends', async () => {
    const email = uniqueEmail();
    clockAt(0);
    const old = await createToken(service, await sessionFor(service, email), {
      name: 'short',
      scopes: ['admin'],
      ttlDays: 1,
    });
    clockAt(DAY_MS - 2 * HOUR_MS);
    const rotated = await rotate(await sessionFor(service, email), old.id, { graceHours: 24 });
    expect(rotated.body.data.replaces.stopsAt).toBe(old.expiresAt);
    // The replacement lives one day from the rotation, as the old one lived one day from its creation.
    expect(rotated.body.data.expiresAt).toBe(at(2 * DAY_MS - 2 * HOUR_MS));
    clockAt(DAY_MS);
    expect(await useStatus(old.rawToken)).toBe(401);
    expect(await useStatus(rotated.body.data.rawToken)).toBe(200);
  });

  it('replaces an expired token too, which stays stopped', async () => {
    const email = uniqueEmail();
    const old = await createToken(service, await sessionFor(service, email), {
      name: 'lapsed',
      scopes: ['admin'],
      ttlDays: 7,
    });
    clockAt(10 * DAY_MS);
    const rotated = await rotate(await sessionFor(service, email), old.id);
    expect(rotated.status).toBe(201);
    expect(rotated.body.data.replaces.stopsAt).toBe(old.expiresAt);
    expect(await useStatus(old.rawToken)).toBe(401);
    expect(await useStatus(rotated.body.data.rawToken)).toBe(200);
  });
});

describe('rotation and the token limit', () => {
  it('counts both tokens until the old one stops, then frees its slot', async () => {
    const email = uniqueEmail();
    clockAt(0);
    const session = await sessionFor(service, email);
    const [first] = await seedTokens(session, 99);
    expect((await rotate(session, first ?? '', { graceHours: 1 })).status).toBe(201);
    const over = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'x', scopes: ['admin'] },
    });
    expect([over.status, over.body.error]).toEqual([409, ErrorText.tokenLimit]);

    clockAt(HOUR_MS);
    const later = await sessionFor(service, email);
    expect(
      (await call(service, 'POST', '/api/v1/tokens', { token: later, json: { name: 'x', scopes: ['admin'] } })).status,
    ).toBe(201);
  });

  it('refuses a rotation past the limit unless the old token stops at once', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const [first] = await seedTokens(session, 100);
    const refused = await rotate(session, first ?? '');
    expect([refused.status, refused.body.error]).toEqual([409, ErrorText.tokenLimit]);
    expect((await rotate(session, first ?? '', { graceHours: 0 })).status).toBe(201);
  });
});

describe('rotations racing', () => {
  it('lets exactly one of rotations racing for a token through, even one that read it before any wrote; the others get 409', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const old = await createToken(service, session);
    // The first rotation to write is held until three more have run through: it read the token
    // unrotated, and only its condition can refuse it (once: a retry of it is not held).
    const others: Promise<Reply[]>[] = [];
    proxy.rewrite('TransactWriteItems', async (body) => {
      if (!isRotation(body) || others.length > 0) return;
      others.push(Promise.all(Array.from({ length: 3 }, () => rotate(session, old.id))));
      await others[0];
    });
    try {
      const first = await rotate(session, old.id);
      const replies = [first, ...((await others[0]) ?? [])];
      expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409, 409, 409]);
      expect(first.status).toBe(409);
      const winner = replies.find((reply) => reply.status === 201)?.body.data;
      const tokens = (await call(service, 'GET', '/api/v1/tokens', { token: session })).body.data as { id: string }[];
      expect(tokens.map((token) => token.id).sort()).toEqual([old.id, winner.id].sort());
    } finally {
      proxy.rewrite('TransactWriteItems', undefined);
    }
  });
});

describe('rotation and the other ends of a token', () => {
  it('answers 404 to a rotation whose token is revoked between its read and its write', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const old = await createToken(service, session);
    // When the rotation's transaction reaches DynamoDB, the token is revoked first (once: a retry of the
    // transaction finds it revoked too).
    let revoke: Promise<Reply> | undefined;
    proxy.rewrite('TransactWriteItems', async (body) => {
      if (!isRotation(body)) return;
      revoke ??= call(service, 'DELETE', `/api/v1/tokens/${old.id}`, { token: session });
      await revoke;
    });
    try {
      const reply = await rotate(session, old.id);
      expect((await revoke)?.status).toBe(200);
      expect([reply.status, reply.body.error]).toEqual([404, ErrorText.tokenNotFound]);
    } finally {
      proxy.rewrite('TransactWriteItems', undefined);
    }
    const tokens = (await call(service, 'GET', '/api/v1/tokens', { token: session })).body.data as unknown[];
    expect(tokens).toEqual([]);
  });

  it('offboards both tokens of a rotation in its grace period', async () => {
    const email = uniqueEmail();
    const session = await sessionFor(service, email);
    const old = await createToken(service, session);
    const fresh = (await rotate(session, old.id)).body.data;
    // The use case reads the table's name when loaded, after the service has set it.
    const { offboarding } = await import('@lambdas/composition/offboarding');
    const report = await offboarding.offboardUser(email, new Date());
    expect([...report.revokedTokens].sort()).toEqual([old.id, fresh.id].sort());
    expect(await useStatus(old.rawToken)).toBe(401);
    expect(await useStatus(fresh.rawToken)).toBe(401);
  });
});
