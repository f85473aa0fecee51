import { ErrorText } from '@contract/errors';
import { RATE_LIMIT_PROBE_HEADER, RATE_LIMIT_RETRY_AFTER_SECONDS } from '@contract/rate-limit';
import type { LocalService } from '../../local/service';
import { call, createToken, type Reply, sessionFor, startService, uniqueEmail } from './harness';

/** The per-credential limit through the local gateway, as the stack's web ACL applies it deployed. */

const LIMIT = 5;
const TOO_MANY = { success: false, error: ErrorText.tooManyRequests };

let service: LocalService;
beforeAll(async () => {
  service = await startService({ rateLimitPerMinute: LIMIT });
});
afterAll(async () => {
  await service.close();
});

const projects = (token: string) => call(service, 'GET', '/api/v1/projects', { token });
const times = (count: number, send: () => Promise<Reply>) => Promise.all(Array.from({ length: count }, send));

const expectTooManyRequests = (reply: Reply, maxRetryAfter: number) => {
  expect(reply.status).toBe(429);
  expect(reply.body).toEqual(TOO_MANY);
  expect(reply.headers['content-type']).toBe('application/json');
  expect(reply.headers['cache-control']).toBe('no-store');
  const retryAfter = String(reply.headers['retry-after']);
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  expect(Number(retryAfter)).toBeLessThanOrEqual(maxRetryAfter);
};

describe('the per-credential request limit', () => {
  it('refuses one token over its limit with 429 and Retry-After while a second token and a session keep working', async () => {
    const ada = await sessionFor(service, uniqueEmail('ada'));
    const bob = await sessionFor(service, uniqueEmail('bob'));
    const first = await createToken(service, ada);
    const second = await createToken(service, bob);

    const allowed = await times(LIMIT, () => projects(first.rawToken));
    expect(allowed.map((reply) => reply.status)).toEqual(Array(LIMIT).fill(200));
    expectTooManyRequests(await projects(first.rawToken), 60);

    // While the first token stays refused, the others are counted on their own.
    const [refused, others, session] = await Promise.all([
      times(3, () => projects(first.rawToken)),
      times(LIMIT, () => projects(second.rawToken)),
      times(LIMIT - 1, () => projects(bob)), // bob's session created a token: one request of its five
    ]);
    for (const reply of refused) expectTooManyRequests(reply, 60);
    expect(others.map((reply) => reply.status)).toEqual(Array(LIMIT).fill(200));
    expect(session.map((reply) => reply.status)).toEqual(Array(LIMIT - 1).fill(200));
  });

  it('counts a credential before the authorizer, so a made-up one is refused too once over the limit', async () => {
    const madeUp = `svc_live_${'x'.repeat(40)}`;
    const refusals = await times(LIMIT, () => projects(madeUp));
    expect(refusals.map((reply) => reply.status)).toEqual(Array(LIMIT).fill(401));
    expectTooManyRequests(await projects(madeUp), 60);
  });

  it(`answers ${RATE_LIMIT_PROBE_HEADER}: 1 as the limit does, without counting the request`, async () => {
    const session = await sessionFor(service, uniqueEmail('probe'));
    const probes = await times(LIMIT + 1, () =>
      call(service, 'GET', '/api/v1/projects', { token: session, headers: [[RATE_LIMIT_PROBE_HEADER, '1']] }),
    );
    for (const reply of probes) {
      expectTooManyRequests(reply, 60);
      expect(reply.headers['retry-after']).toBe(RATE_LIMIT_RETRY_AFTER_SECONDS);
    }
    expect((await projects(session)).status).toBe(200);
    const anonymous = await call(service, 'GET', '/api/v1/projects', { headers: [[RATE_LIMIT_PROBE_HEADER, '1']] });
    expectTooManyRequests(anonymous, 60);
  });
});
