import { randomUUID } from 'node:crypto';
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { trailPage } from '@contract/schemas';
import { auditEvent } from '@lambdas/domain/audit';
import { type CountingProxy, startCountingProxy } from '../../measure/dynamo-proxy';
import { arrange, call, devSession, type Reply, seedAuditEvents, uniqueEmail } from './harness';
import { type NpmService, startNpmService } from './npm-start';

/**
 * The audit trail, black box against `npm start` (its DynamoDB behind the counting proxy, which can
 * make DynamoDB cancel a transaction): every change leaves its event with who, from where and what;
 * a refusal leaves none (a genuine token's denial aside, once a minute); the trails page exactly once
 * through everything, and only their owners read them.
 */

let service: NpmService;
let proxy: CountingProxy;
const tableName = `audit-${randomUUID().slice(0, 8)}`;
const USER_AGENT = 'audit-test/1.0';

beforeAll(async () => {
  proxy = await startCountingProxy(process.env.TEST_DYNAMODB_ENDPOINT ?? '');
  service = await startNpmService({ DYNAMODB_ENDPOINT: proxy.endpoint, TABLE_NAME: tableName });
});

afterAll(async () => {
  await service?.stop();
  await proxy?.close();
});

const as = (token: string, extra: { json?: unknown; from?: string } = {}) => ({
  token,
  headers: [['User-Agent', USER_AGENT]] as [string, string][],
  ...extra,
});

const trail = async (token: string, query = ''): Promise<Reply> =>
  call(service, 'GET', `/api/v1/audit-events${query}`, as(token));

const projectTrail = (token: string, projectId: string, query = ''): Promise<Reply> =>
  call(service, 'GET', `/api/v1/projects/${projectId}/audit-events${query}`, as(token));

/** The events of a trail's page, read through the contract's schema: a page of another shape fails here. */
const eventsOf = (reply: Reply): AuditEvent[] => trailPage().parse(reply.body).data;

/** A user who has signed in once, with a session and their user id. */
const signedIn = async (label: string) => {
  const email = uniqueEmail(label);
  const token = await devSession(service, email);
  const userId = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).sub as string;
  await trail(token);
  return { email, token, userId };
};

describe('each change leaves its event', () => {
  it('records token and member changes with actor, target, address, user agent and request id', async () => {
    const ada = await signedIn('ada');
    const bob = await signedIn('bob');
    const created = await call(
      service,
      'POST',
      '/api/v1/tokens',
      as(ada.token, { json: { name: 'ci', scopes: ['admin'], ttlDays: 7 } }),
    );
    expect(created.status).toBe(201);
    const tokenId = created.body.data.id as string;
    const project = await call(
      service,
      'POST',
      '/api/v1/projects',
      as(created.body.data.rawToken, { json: { name: 'audit' } }),
    );
    const projectId = project.body.data.projectId as string;
    await call(
      service,
      'POST',
      `/api/v1/projects/${projectId}/members`,
      as(ada.token, { json: { email: bob.email, role: 'admin' } }),
    );
    await call(
      service,
      'DELETE',
      `/api/v1/projects/${projectId}/members/${encodeURIComponent(bob.email)}`,
      as(ada.token),
    );
    await call(service, 'DELETE', `/api/v1/tokens/${tokenId}`, as(ada.token));

    const events = eventsOf(await trail(ada.token));
    expect(events.map((event) => event.type)).toEqual([
      'token.revoked',
      'member.removed',
      'member.added',
      'project.created',
      'token.created',
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ sourceIp: '127.0.0.1', userAgent: USER_AGENT, requestId: expect.any(String) });
      expect(event.actor.userId).toBe(ada.userId);
      expect(event.actor.email).toBe(ada.email);
    }
    const [revoked, removed, added, projectCreated, tokenCreated] = events;
    expect(tokenCreated).toMatchObject({
      actor: { via: 'session', tokenId: null },
      target: { tokenId },
      details: { name: 'ci', scopes: ['admin'], expiresAt: created.body.data.expiresAt },
    });
    expect(projectCreated).toMatchObject({
      actor: { via: 'token', tokenId },
      target: { projectId },
      details: { name: 'audit' },
    });
    expect(added).toMatchObject({
      target: { projectId, userId: bob.userId, email: bob.email },
      details: { role: 'admin' },
    });
    expect(removed).toMatchObject({ target: { projectId, userId: bob.userId, email: bob.email } });
    expect(revoked).toMatchObject({ target: { tokenId } });

    const projectEvents = eventsOf(await projectTrail(ada.token, projectId));
    expect(projectEvents.map((event) => event.type)).toEqual(['member.removed', 'member.added', 'project.created']);
  });

  it('records nothing for a refused request', async () => {
    const ada = await signedIn('ada');
    const before = (await trail(ada.token)).body.data;
    const project = await call(service, 'POST', '/api/v1/projects', as(ada.token, { json: { name: 'p' } }));
    const projectId = project.body.data.projectId as string;
    const afterCreate = (await trail(ada.token)).body.data;
    expect(afterCreate).toHaveLength(before.length + 1);
    const refused = [
      await call(
        service,
        'POST',
        `/api/v1/projects/${projectId}/members`,
        as(ada.token, { json: { email: uniqueEmail(), role: 'member' } }),
      ),
      await call(
        service,
        'POST',
        `/api/v1/projects/${projectId}/members`,
        as(ada.token, { json: { email: ada.email, role: 'member' } }),
      ),
      await call(service, 'DELETE', '/api/v1/tokens/AAAAAAAAAAAA', as(ada.token)),
      await call(service, 'POST', '/api/v1/tokens', as(ada.token, { json: { name: '', scopes: [] } })),
    ];
    expect(refused.map((reply) => reply.status)).toEqual([404, 409, 404, 400]);
    expect((await trail(ada.token)).body.data).toEqual(afterCreate);
  });

  it('writes a change and its event in one transaction: when DynamoDB cancels it, neither is there', async () => {
    const ada = await signedIn('ada');
    const before = (await trail(ada.token)).body.data;
    // DynamoDB refuses the event's write; the token's write, in the same call, must go with it.
    proxy.rewrite('TransactWriteItems', (body) => {
      for (const item of body.TransactItems as TransactWriteItem[]) {
        if (item.Put?.Item?.entity?.S === 'AuditEvent') item.Put.ConditionExpression = 'attribute_exists(PK)';
      }
    });
    try {
      const refused = await call(
        service,
        'POST',
        '/api/v1/tokens',
        as(ada.token, { json: { name: 'x', scopes: ['admin'] } }),
      );
      expect(refused.status).toBe(500);
    } finally {
      proxy.rewrite('TransactWriteItems', undefined);
    }
    expect((await call(service, 'GET', '/api/v1/tokens', as(ada.token))).body.data).toEqual([]);
    expect((await trail(ada.token)).body.data).toEqual(before);
  });
});

describe('denials of a genuine token', () => {
  it('records one event for 50 parallel uses from another address, with the reason', async () => {
    const ada = await signedIn('ada');
    const created = await call(
      service,
      'POST',
      '/api/v1/tokens',
      as(ada.token, { json: { name: 'leaked', scopes: ['admin'] } }),
    );
    const raw = created.body.data.rawToken as string;
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => call(service, 'GET', '/api/v1/tokens', as(raw, { from: '127.0.0.2' }))),
    );
    // Each is refused: for its address, or, on a machine so busy that DynamoDB did not answer the
    // authorizer in time, with a fail-closed 503.
    const errors = replies.map((reply) => reply.body.error);
    expect(errors).toContain(ErrorText.wrongIp);
    expect(errors.filter((error) => error !== ErrorText.wrongIp && error !== ErrorText.unavailable)).toEqual([]);
    // Recording a denial is best effort (the refusal never waits on it): should every recording have
    // missed DynamoDB's answer, the next use records it. However many uses, one event a minute.
    // The trail is read as an arrangement: right after 50 parallel refusals a busy DynamoDB Local may
    // answer it 503, which is sent again (harness arrange); what is checked is the events it holds.
    const deniedTrail = async () =>
      eventsOf(await arrange(service, 'GET', '/api/v1/audit-events?type=token.denied', as(ada.token)));
    let denials = await deniedTrail();
    while (denials.length === 0) {
      await call(service, 'GET', '/api/v1/tokens', as(raw, { from: '127.0.0.2' }));
      denials = await deniedTrail();
    }
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({
      actor: { userId: ada.userId, via: 'token', tokenId: created.body.data.id },
      target: { tokenId: created.body.data.id },
      sourceIp: '127.0.0.2',
      details: { reason: 'ip' },
    });
    // Another reason is recorded on its own. Recording a denial is best effort (the refusal never waits
    // on it): on a machine so busy that DynamoDB did not answer in time the use is refused unrecorded,
    // and the next one records it (the test's time limit bounds the wait).
    let reasons: (string | null)[] = [];
    while (!reasons.includes('scope')) {
      const refused = await call(
        service,
        'POST',
        '/api/v1/tokens',
        as(raw, { json: { name: 'x', scopes: ['admin'] } }),
      );
      expect([403, 503]).toContain(refused.status);
      reasons = eventsOf(await trail(ada.token, '?type=token.denied')).map((event) => event.details.reason);
    }
    expect(reasons).toEqual(['scope', 'ip']);
  });
});

describe('reading the trails', () => {
  it('pages a 250-event trail exactly once, newest first', async () => {
    const ada = await signedIn('ada');
    // What each change writes to the trail is checked above; paging needs a long trail, so its 250
    // events are written the way the service writes a project's creation (its own event writer), a
    // second apart, in a few batch writes rather than 250 transactions through the API.
    const actor = {
      type: 'user' as const,
      id: ada.userId,
      name: null,
      userId: ada.userId,
      email: ada.email,
      via: 'session' as const,
      tokenId: null,
      subject: null,
    };
    const origin = { actor, sourceIp: '127.0.0.1', userAgent: USER_AGENT, requestId: null };
    const start = Date.now() - 250_000;
    await seedAuditEvents(
      tableName,
      Array.from({ length: 250 }, (_, index) => {
        const projectId = `prj_${String(index).padStart(16, 'A')}`;
        const event = auditEvent(
          'project.created',
          origin,
          new Date(start + index * 1000),
          { projectId },
          {
            name: `p${index}`,
          },
        );
        return { event, trails: { userId: ada.userId, projectId } };
      }),
    );

    /** The whole trail, read a page of `limit` at a time. */
    const paged = async (limit: number): Promise<AuditEvent[]> => {
      const events: AuditEvent[] = [];
      let cursor: string | null = null;
      for (;;) {
        const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = await trail(ada.token, query);
        // A page not read in time is read again, from the same cursor, after the second it asks.
        if (page.status === 503) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          continue;
        }
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(limit);
        events.push(...eventsOf(page));
        cursor = page.body.nextCursor;
        if (cursor === null) return events;
      }
    };
    const seen = await paged(40);
    // The same events in the same order whatever the page size, each once: none skipped, none twice.
    const whole = await paged(100);
    expect(whole.length).toBeGreaterThanOrEqual(250);
    expect(seen.map((event) => event.id)).toEqual(whole.map((event) => event.id));
    expect(new Set(seen.map((event) => event.id)).size).toBe(whole.length);
    const keys = seen.map((event) => `${event.time}#${event.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(new Set(seen.map((event) => event.details.name))).toEqual(
      new Set(Array.from({ length: 250 }, (_, i) => `p${i}`)),
    );
  });

  it('filters by type and time, and refuses a bad query or a cursor that is not its own', async () => {
    const ada = await signedIn('ada');
    const eve = await signedIn('eve');
    await call(service, 'POST', '/api/v1/projects', as(ada.token, { json: { name: 'one' } }));
    const middle = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await call(service, 'POST', '/api/v1/tokens', as(ada.token, { json: { name: 't', scopes: ['admin'] } }));
    expect(eventsOf(await trail(ada.token, '?type=token.created')).map((event) => event.type)).toEqual([
      'token.created',
    ]);
    expect(eventsOf(await trail(ada.token, `?since=${middle}`)).map((event) => event.type)).toEqual(['token.created']);
    expect(eventsOf(await trail(ada.token, `?until=${middle}`)).map((event) => event.type)).toEqual([
      'project.created',
    ]);

    const first = await trail(ada.token, '?limit=1');
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const foreign = await trail(eve.token, `?cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(foreign.status).toBe(400);
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=x',
      '?type=token.stolen',
      '?since=yesterday',
      '?until=2026-02-30T25:00:00Z',
      '?cursor=%7B%7D',
      '?cursor=bm9wZQ',
      '?colour=red',
    ]) {
      const reply = await trail(ada.token, query);
      expect([query, reply.status, reply.body.error]).toEqual([query, 400, ErrorText.validation]);
    }
  });

  it('answers 400 with details, never 500, for since after until and a date that does not exist', async () => {
    const ada = await signedIn('ada');
    const project = await call(service, 'POST', '/api/v1/projects', as(ada.token, { json: { name: 'p' } }));
    const projectId = project.body.data.projectId as string;
    for (const [query, path] of [
      ['?since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z', 'since'],
      ['?since=2026-03-01T00:00:00.001Z&until=2026-03-01T00:00:00Z', 'since'],
      ['?since=2026-02-31T00:00:00Z', 'since'],
      ['?until=2025-02-29T12:00:00.000Z', 'until'],
      ['?until=2026-04-31T00:00:00Z', 'until'],
      ['?since=2026-01-01T24:00:00Z', 'since'],
    ]) {
      for (const reply of [await trail(ada.token, query), await projectTrail(ada.token, projectId, query)]) {
        expect([query, reply.status, reply.body.error]).toEqual([query, 400, ErrorText.validation]);
        expect(reply.body.details).toEqual([{ path, message: expect.any(String) }]);
      }
    }
    // The same instant on both sides is one millisecond's window, and a far future an empty one.
    for (const query of ['?since=2026-03-01T00:00:00Z&until=2026-03-01T00:00:00.000Z', '?since=9999-01-01T00:00:00Z']) {
      const reply = await trail(ada.token, query);
      expect([query, reply.status, reply.body.data]).toEqual([query, 200, []]);
    }
  });

  it('answers 400, never 500, for a cursor sent with other filters than its own', async () => {
    const ada = await signedIn('ada');
    const projectId = await call(service, 'POST', '/api/v1/projects', as(ada.token, { json: { name: 'a' } })).then(
      (reply) => reply.body.data.projectId as string,
    );
    const start = new Date(Date.now() - 1_000).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const email of [uniqueEmail('m1'), uniqueEmail('m2'), uniqueEmail('m3')]) {
      await devSession(service, email).then((token) => trail(token));
      await call(
        service,
        'POST',
        `/api/v1/projects/${projectId}/members`,
        as(ada.token, { json: { email, role: 'member' } }),
      );
    }
    const end = new Date(Date.now() + 60_000).toISOString();
    const filters = `type=member.added&since=${start}&until=${end}`;
    for (const read of [
      (query: string) => trail(ada.token, query),
      (query: string) => projectTrail(ada.token, projectId, query),
    ]) {
      const first = await read(`?limit=1&${filters}`);
      expect(first.status).toBe(200);
      const cursor = encodeURIComponent(first.body.nextCursor);
      expect((await read(`?limit=1&${filters}&cursor=${cursor}`)).status).toBe(200);
      for (const other of [
        'type=project.created',
        '',
        `type=member.added&since=${start}`,
        `type=member.added&since=${end}&until=${end}`,
        `type=member.added&since=${start}&until=${start}`,
        `type=member.added&since=${start}&until=2999-01-01T00:00:00Z`,
      ]) {
        const reply = await read(`?limit=1&${other}&cursor=${cursor}`);
        expect([other, reply.status, reply.body.error]).toEqual([other, 400, ErrorText.validation]);
        expect(reply.body.details).toEqual([{ path: 'cursor', message: expect.any(String) }]);
      }
      // An altered cursor (its event moved out of its own window) with its own filters.
      const forged = Buffer.from(
        Buffer.from(first.body.nextCursor, 'base64url')
          .toString('utf8')
          .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z(?=#evt_)/g, '2000-01-01T00:00:00.000Z'),
      ).toString('base64url');
      const reply = await read(`?limit=1&${filters}&cursor=${forged}`);
      expect([reply.status, reply.body.details]).toEqual([400, [{ path: 'cursor', message: expect.any(String) }]]);
    }
  });

  it('lets owners and admins read a project trail; a member gets 403, anyone else 404', async () => {
    const owner = await signedIn('owner');
    const member = await signedIn('member');
    const stranger = await signedIn('stranger');
    const project = await call(service, 'POST', '/api/v1/projects', as(owner.token, { json: { name: 'p' } }));
    const projectId = project.body.data.projectId as string;
    await call(
      service,
      'POST',
      `/api/v1/projects/${projectId}/members`,
      as(owner.token, { json: { email: member.email, role: 'member' } }),
    );

    expect((await projectTrail(owner.token, projectId)).status).toBe(200);
    const asMember = await projectTrail(member.token, projectId);
    expect([asMember.status, asMember.body.error]).toEqual([403, ErrorText.projectRole]);
    const asStranger = await projectTrail(stranger.token, projectId);
    expect([asStranger.status, asStranger.body.error]).toEqual([404, ErrorText.projectNotFound]);
    // A stranger's own trail never holds another user's events.
    const strangers = eventsOf(await trail(stranger.token));
    expect(strangers.every((event) => event.actor.userId === stranger.userId)).toBe(true);
  });
});
