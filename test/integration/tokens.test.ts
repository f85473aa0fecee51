import { ErrorText } from '@contract/errors';
import { setClock } from '@lambdas/domain/clock';
import type { LocalService } from '../../local/service';
import { call, createToken, seedTokens, sessionFor, startService, uniqueEmail } from './harness';
import { DECEPTIVE_NAME_MESSAGE, DECEPTIVE_NAMES, PLAIN_NAMES } from './names';
import { scanTable } from './secret-scan';

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  setClock();
  await service.close();
});
afterEach(() => setClock());

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY_MS = 24 * 60 * 60 * 1000;

describe('token lifecycle', () => {
  it('creates a token with a session, uses it, lists it and revokes it, after which it is a 401', async () => {
    const session = await sessionFor(service, uniqueEmail());

    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: '  deploy bot  ', scopes: ['read:secrets', 'admin'], ttlDays: 7 },
    });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/json');
    const token = created.body.data;
    expect(created.body.success).toBe(true);
    expect(Object.keys(token).sort()).toEqual([
      'displayPrefix',
      'expiresAt',
      'id',
      'name',
      'projects',
      'rawToken',
      'scopes',
    ]);
    expect(token.projects).toBeNull();
    expect(token.name).toBe('deploy bot');
    expect(token.rawToken).toMatch(/^svc_live_[0-9A-Za-z]{42}$/);
    expect(token.rawToken.startsWith(token.displayPrefix)).toBe(true);
    expect(token.displayPrefix.length).toBeGreaterThanOrEqual(12);
    expect(token.displayPrefix.length).toBeLessThanOrEqual(16);
    expect(token.scopes).toEqual(['read:secrets', 'admin']);
    expect(token.expiresAt).toMatch(ISO_MS);

    const used = await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken });
    expect(used.status).toBe(200);
    expect(used.text).not.toContain(token.rawToken);
    const [listed] = used.body.data;
    expect(Object.keys(listed).sort()).toEqual([
      'allowedIps',
      'createdAt',
      'displayPrefix',
      'expiresAt',
      'id',
      'lastUsedAt',
      'lastUsedIp',
      'name',
      'projects',
      'replacedBy',
      'scopes',
      'stopsAt',
    ]);
    expect(listed).toMatchObject({
      id: token.id,
      name: 'deploy bot',
      expiresAt: token.expiresAt,
      replacedBy: null,
      stopsAt: null,
    });
    expect(listed.createdAt).toMatch(ISO_MS);
    expect(Date.parse(listed.expiresAt) - Date.parse(listed.createdAt)).toBe(7 * DAY_MS);
    expect(listed.lastUsedAt).toMatch(ISO_MS);

    const revoked = await call(service, 'DELETE', `/api/v1/tokens/${token.id}`, { token: session });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });

    const after = await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ success: false, error: ErrorText.unauthorized });
    const list = await call(service, 'GET', '/api/v1/tokens', { token: session });
    expect(list.body.data).toEqual([]);
  });

  it('defaults ttlDays to 30 and gives a token created with ttlDays null no expiry', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const defaulted = await createToken(service, session, { name: 'a', scopes: ['admin'] });
    const forever = await createToken(service, session, { name: 'b', scopes: ['admin'], ttlDays: null });
    expect(forever.expiresAt).toBeNull();
    const list = await call(service, 'GET', '/api/v1/tokens', { token: session });
    const byId = Object.fromEntries(list.body.data.map((t: { id: string }) => [t.id, t]));
    expect(Date.parse(byId[defaulted.id].expiresAt) - Date.parse(byId[defaulted.id].createdAt)).toBe(30 * DAY_MS);
    expect(byId[forever.id].expiresAt).toBeNull();
    expect(byId[forever.id].lastUsedAt).toBeNull();
  });

  it('lists only the caller’s tokens, newest first', async () => {
    const mine = await sessionFor(service, uniqueEmail());
    const theirs = await sessionFor(service, uniqueEmail());
    const start = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      setClock({ now: () => new Date(start + i * 1000) });
      ids.push((await createToken(service, mine, { name: `t${i}`, scopes: ['admin'] })).id);
    }
    setClock();
    await createToken(service, theirs);
    const list = await call(service, 'GET', '/api/v1/tokens', { token: mine });
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([...ids].reverse());
  });
});

describe('POST /api/v1/tokens', () => {
  it('refuses an API token: creation needs a dashboard session', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const { rawToken } = await createToken(service, session);
    const reply = await call(service, 'POST', '/api/v1/tokens', {
      token: rawToken,
      json: { name: 'x', scopes: ['admin'] },
    });
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ success: false, error: ErrorText.sessionRequired });
  });

  it.each([
    ['a missing name', { scopes: ['admin'] }, 'name'],
    ['an empty name', { name: '   ', scopes: ['admin'] }, 'name'],
    ['a name over 100 characters', { name: 'x'.repeat(101), scopes: ['admin'] }, 'name'],
    ['missing scopes', { name: 'x' }, 'scopes'],
    ['empty scopes', { name: 'x', scopes: [] }, 'scopes'],
    ['an unknown scope', { name: 'x', scopes: ['root'] }, 'scopes.0'],
    ['a repeated scope', { name: 'x', scopes: ['admin', 'admin'] }, 'scopes'],
    ['ttlDays of 0', { name: 'x', scopes: ['admin'], ttlDays: 0 }, 'ttlDays'],
    ['ttlDays over 3650', { name: 'x', scopes: ['admin'], ttlDays: 3651 }, 'ttlDays'],
    ['a fractional ttlDays', { name: 'x', scopes: ['admin'], ttlDays: 1.5 }, 'ttlDays'],
    ['ttlDays as a string', { name: 'x', scopes: ['admin'], ttlDays: '7' }, 'ttlDays'],
    ['an unknown field', { name: 'x', scopes: ['admin'], owner: 'me' }, ''],
  ])('answers 400 Validation failed for %s', async (_label, body, path) => {
    const session = await sessionFor(service, uniqueEmail());
    const reply = await call(service, 'POST', '/api/v1/tokens', { token: session, json: body });
    expect(reply.status).toBe(400);
    expect(reply.body.success).toBe(false);
    expect(reply.body.error).toBe(ErrorText.validation);
    expect(reply.body.details.map((d: { path: string }) => d.path)).toContain(path);
    for (const detail of reply.body.details) expect(typeof detail.message).toBe('string');
  });

  it('tells a refused body in words for people: no scope chosen', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const reply = await call(service, 'POST', '/api/v1/tokens', { token: session, json: { name: 'ci', scopes: [] } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      success: false,
      error: ErrorText.validation,
      details: [{ path: 'scopes', message: 'Choose at least one scope' }],
    });
  });

  it('names every refused allowedIps entry in a detail of its own, and none it accepts', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const reply = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'ci', scopes: ['admin'], allowedIps: ['not-an-ip', '0.0.0.0/0', '10.0.0.1', '10.0.0.1'] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      success: false,
      error: ErrorText.validation,
      details: [
        { path: 'allowedIps.0', message: 'Not an IP address or CIDR' },
        {
          path: 'allowedIps.1',
          message:
            'Broader than a /8: an allow-list names the few networks a token is used from, not a share of the Internet',
        },
        { path: 'allowedIps.3', message: 'The same as allowedIps.2' },
      ],
    });
  });

  it('refuses a name with control, bidirectional or invisible characters, and keeps any script', async () => {
    const session = await sessionFor(service, uniqueEmail());
    for (const name of DECEPTIVE_NAMES) {
      const reply = await call(service, 'POST', '/api/v1/tokens', {
        token: session,
        json: { name, scopes: ['admin'] },
      });
      expect([JSON.stringify(name), reply.status, reply.body.error]).toEqual([
        JSON.stringify(name),
        400,
        ErrorText.validation,
      ]);
      expect(reply.body.details).toEqual([{ path: 'name', message: expect.stringMatching(DECEPTIVE_NAME_MESSAGE) }]);
    }
    for (const name of PLAIN_NAMES) {
      const reply = await call(service, 'POST', '/api/v1/tokens', {
        token: session,
        json: { name, scopes: ['admin'] },
      });
      expect([name, reply.status, reply.body.data?.name]).toEqual([name, 201, name]);
    }
  });

  it('accepts ttlDays of 1 and 3650, the bounds', async () => {
    const session = await sessionFor(service, uniqueEmail());
    for (const ttlDays of [1, 3650]) {
      const reply = await call(service, 'POST', '/api/v1/tokens', {
        token: session,
        json: { name: 'x', scopes: ['admin'], ttlDays },
      });
      expect(reply.status).toBe(201);
    }
  });

  it('answers 409 Token limit reached past 100 live tokens, and frees a slot on revoke', async () => {
    const session = await sessionFor(service, uniqueEmail());
    // 99 tokens in one batch; the 100th and the 101st go through the API, which enforces the limit.
    const [oldest] = await seedTokens(session, 99, { scopes: ['read:secrets'] });
    expect(
      (await call(service, 'POST', '/api/v1/tokens', { token: session, json: { name: 't', scopes: ['admin'] } }))
        .status,
    ).toBe(201);
    const over = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'x', scopes: ['admin'] },
    });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ success: false, error: ErrorText.tokenLimit });

    expect((await call(service, 'DELETE', `/api/v1/tokens/${oldest}`, { token: session })).status).toBe(200);
    expect(
      (await call(service, 'POST', '/api/v1/tokens', { token: session, json: { name: 'x', scopes: ['admin'] } }))
        .status,
    ).toBe(201);
  });

  it('does not count expired tokens against the limit, and frees their slots with the next create', async () => {
    const email = uniqueEmail();
    const session = await sessionFor(service, email);
    await seedTokens(session, 100, { ttlDays: 1 });
    expect(
      (await call(service, 'POST', '/api/v1/tokens', { token: session, json: { name: 'x', scopes: ['admin'] } }))
        .status,
    ).toBe(409);

    setClock({ now: () => new Date(Date.now() + 2 * DAY_MS) });
    const later = await sessionFor(service, email);
    const reply = await call(service, 'POST', '/api/v1/tokens', {
      token: later,
      json: { name: 'x', scopes: ['admin'] },
    });
    expect(reply.status).toBe(201);
    // The slot item keeps only live tokens, so it does not grow with every token a user ever made.
    const tokenId: string = reply.body.data.id;
    const slotItems = (
      await scanTable(process.env.TEST_DYNAMODB_ENDPOINT ?? '', process.env.TEST_TABLE_NAME ?? '')
    ).filter((item) => item.entity === 'TokenSlots' && Object.hasOwn(item.slots as object, tokenId));
    expect(slotItems.map((item) => Object.keys(item.slots as object))).toEqual([[tokenId]]);
  });

  it('never lets parallel creates exceed the limit', async () => {
    const session = await sessionFor(service, uniqueEmail());
    await seedTokens(session, 95);
    const replies = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(service, 'POST', '/api/v1/tokens', { token: session, json: { name: 'p', scopes: ['admin'] } }),
      ),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409 || status === 503)).toBe(true);
    const list = await call(service, 'GET', '/api/v1/tokens', { token: session });
    expect(list.body.data).toHaveLength(100);
  });
});

describe('DELETE /api/v1/tokens/:id', () => {
  it('returns 404 for a token of another user, and that token keeps working', async () => {
    const owner = await sessionFor(service, uniqueEmail());
    const other = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, owner);
    const reply = await call(service, 'DELETE', `/api/v1/tokens/${token.id}`, { token: other });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ success: false, error: ErrorText.tokenNotFound });
    expect((await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken })).status).toBe(200);
  });

  it('returns 404 for an unknown id, a malformed id and an already revoked token', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, session);
    expect((await call(service, 'DELETE', `/api/v1/tokens/${token.id}`, { token: session })).status).toBe(200);
    for (const id of [token.id, 'AAAAAAAAAAAA', 'not-a-token-id']) {
      const reply = await call(service, 'DELETE', `/api/v1/tokens/${id}`, { token: session });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ success: false, error: ErrorText.tokenNotFound });
    }
  });

  it('lets an admin token revoke its owner’s tokens, itself included', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const admin = await createToken(service, session);
    const reply = await call(service, 'DELETE', `/api/v1/tokens/${admin.id}`, { token: admin.rawToken });
    expect(reply.status).toBe(200);
    expect((await call(service, 'GET', '/api/v1/tokens', { token: admin.rawToken })).status).toBe(401);
  });
});

describe('expiry', () => {
  it('answers 401 Authentication token has expired once the clock passes expiresAt', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, session, { name: 'short', scopes: ['admin'], ttlDays: 1 });
    const expiresAt = Date.parse(token.expiresAt ?? '');

    setClock({ now: () => new Date(expiresAt - 1000) });
    expect((await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken })).status).toBe(200);

    setClock({ now: () => new Date(expiresAt + 1000) });
    const reply = await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ success: false, error: ErrorText.expired });
  });

  it('keeps an expired token in the list', async () => {
    const email = uniqueEmail();
    const session = await sessionFor(service, email);
    const token = await createToken(service, session, { name: 'short', scopes: ['admin'], ttlDays: 1 });
    setClock({ now: () => new Date(Date.now() + 2 * DAY_MS) });
    const fresh = await service.idp.issue(email);
    const list = await call(service, 'GET', '/api/v1/tokens', { token: fresh });
    expect(list.body.data.map((t: { id: string }) => t.id)).toEqual([token.id]);
  });

  it('never expires a token created with ttlDays null', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, session, { name: 'forever', scopes: ['admin'], ttlDays: null });
    setClock({ now: () => new Date(Date.now() + 20 * 365 * DAY_MS) });
    expect((await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken })).status).toBe(200);
  });

  it('answers 401 Authentication token has expired for a session past exp', async () => {
    const session = await sessionFor(service, uniqueEmail());
    setClock({ now: () => new Date(Date.now() + 2 * 60 * 60 * 1000) });
    const reply = await call(service, 'GET', '/api/v1/tokens', { token: session });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ success: false, error: ErrorText.expired });
  });
});

describe('IP binding', () => {
  it('answers 403 Invalid IP address for this token from another address', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, session, { name: 'bound', scopes: ['admin'] }, '127.0.0.1');
    expect((await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken, from: '127.0.0.1' })).status).toBe(
      200,
    );
    const reply = await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken, from: '127.0.0.2' });
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ success: false, error: ErrorText.wrongIp });
  });

  it('ignores X-Forwarded-For and X-Real-IP naming the bound address', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, session, { name: 'bound', scopes: ['admin'] }, '127.0.0.1');
    const reply = await call(service, 'GET', '/api/v1/tokens', {
      token: token.rawToken,
      from: '127.0.0.2',
      headers: [
        ['X-Forwarded-For', '127.0.0.1'],
        ['X-Real-IP', '127.0.0.1'],
      ],
    });
    expect(reply.status).toBe(403);
  });

  it('binds to the creating address: a token created from 127.0.0.2 works there only', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, session, { name: 'bound', scopes: ['admin'] }, '127.0.0.2');
    expect((await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken, from: '127.0.0.2' })).status).toBe(
      200,
    );
    expect((await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken, from: '127.0.0.1' })).status).toBe(
      403,
    );
  });

  it('treats IPv6 loopback as another address than IPv4 loopback', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, session, { name: 'v6', scopes: ['admin'] }, '127.0.0.1');
    const reply = await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken, host: '::1' });
    expect(reply.status).toBe(403);
  });

  it('binds a token created over IPv6 loopback to ::1', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, session, { name: 'v6', scopes: ['admin'] }, '::1');
    expect((await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken, host: '::1' })).status).toBe(200);
    expect((await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken, host: '127.0.0.1' })).status).toBe(
      403,
    );
  });

  it('compares IPv4 in its IPv4-mapped IPv6 spelling as the same address', async () => {
    // The service listens on `::`, so an IPv4 client arrives as ::ffff:127.0.0.1.
    const session = await sessionFor(service, uniqueEmail());
    const token = await createToken(service, session, { name: 'mapped', scopes: ['admin'] }, '127.0.0.1');
    const list = await call(service, 'GET', '/api/v1/tokens', { token: token.rawToken, from: '127.0.0.1' });
    expect(list.status).toBe(200);
  });

  it('does not bind sessions to an address', async () => {
    const session = await sessionFor(service, uniqueEmail());
    expect((await call(service, 'GET', '/api/v1/tokens', { token: session, from: '127.0.0.1' })).status).toBe(200);
    expect((await call(service, 'GET', '/api/v1/tokens', { token: session, from: '127.0.0.2' })).status).toBe(200);
  });
});
