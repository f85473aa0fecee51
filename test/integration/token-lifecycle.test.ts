import { call, devSession, listedToken, uniqueEmail } from './harness';
import { type NpmService, startNpmService } from './npm-start';

/**
 * The token lifecycle beyond creating and revoking, black box against `npm start` (which sees the TCP peer, so
 * 127.0.0.1 and ::1 are two callers): where a token was last used from, allow-lists, rotation.
 */

let service: NpmService;
beforeAll(async () => {
  service = await startNpmService();
});
afterAll(() => service?.stop());

const session = (): Promise<string> => devSession(service, uniqueEmail('lifecycle'));

const listed = (owner: string, id: string) => listedToken(service, owner, id);

describe('last used, and from where', () => {
  it('shows no address before the first use, then the address of the use beside its time', async () => {
    const owner = await session();
    for (const host of ['127.0.0.1', '::1']) {
      const created = await call(service, 'POST', '/api/v1/tokens', {
        token: owner,
        host,
        json: { name: `from ${host}`, scopes: ['admin'] },
      });
      const { id, rawToken } = created.body.data as { id: string; rawToken: string };
      expect(await listed(owner, id)).toMatchObject({ lastUsedAt: null, lastUsedIp: null });
      expect((await call(service, 'GET', '/api/v1/projects', { token: rawToken, host })).status).toBe(200);
      expect(await listed(owner, id)).toMatchObject({ lastUsedAt: expect.any(String), lastUsedIp: host });
    }
  });
});

describe('allowed addresses', () => {
  const create = (owner: string, allowedIps?: unknown, host = '127.0.0.1') =>
    call(service, 'POST', '/api/v1/tokens', {
      token: owner,
      host,
      json: { name: 'allow-listed', scopes: ['admin'], ...(allowedIps !== undefined && { allowedIps }) },
    });

  /** The status of one use of `rawToken` from `from` (an IPv6 source reaches the service over ::1). */
  const useFrom = async (rawToken: string, from: string) =>
    (await call(service, 'GET', '/api/v1/projects', { token: rawToken, from })).status;

  it('works from every address an allow-list covers and from no other', async () => {
    const owner = await session();
    const created = await create(owner, ['127.0.0.0/31', '::1']);
    expect(created.status).toBe(201);
    const { id, rawToken } = created.body.data as { id: string; rawToken: string };
    expect(await useFrom(rawToken, '127.0.0.1')).toBe(200);
    expect(await useFrom(rawToken, '::1')).toBe(200);
    const refused = await call(service, 'GET', '/api/v1/projects', { token: rawToken, from: '127.0.0.2' });
    expect([refused.status, refused.body.error]).toEqual([403, 'Invalid IP address for this token']);
    expect(await listed(owner, id)).toMatchObject({ allowedIps: ['127.0.0.0/31', '::1'] });
  });

  it('keeps the default: without a list, only the creating address', async () => {
    const owner = await session();
    const created = await create(owner, undefined, '::1');
    const { id, rawToken } = created.body.data as { id: string; rawToken: string };
    expect(await useFrom(rawToken, '::1')).toBe(200);
    expect(await useFrom(rawToken, '127.0.0.1')).toBe(403);
    expect(await listed(owner, id)).toMatchObject({ allowedIps: null });
  });

  it('stores each entry in one form', async () => {
    const owner = await session();
    const created = await create(owner, ['127.0.0.9/29', '::FFFF:10.1.2.3', '2001:DB8:0::1/48']);
    expect(await listed(owner, created.body.data.id)).toMatchObject({
      allowedIps: ['127.0.0.8/29', '10.1.2.3', '2001:db8::/48'],
    });
  });

  it.each([
    [['10.0.0.0/7'], 'allowedIps.0', /Broader than a \/8/],
    [['2001:db8::/31'], 'allowedIps.0', /Broader than a \/32/],
    [['127.0.0.1', '::ffff:127.0.0.1'], 'allowedIps.1', /The same as allowedIps\.0/],
    [['127.0.0.0/24', '127.0.0.5'], 'allowedIps.1', /Overlaps allowedIps\.0/],
    [['localhost'], 'allowedIps.0', /Not an IP address or CIDR/],
    [['1.2.3.4/33'], 'allowedIps.0', /Not an IP address or CIDR/],
  ])('refuses %j with a 400 that says why', async (allowedIps, path, message) => {
    const reply = await create(await session(), allowedIps);
    expect([reply.status, reply.body.error]).toEqual([400, 'Validation failed']);
    expect(reply.body.details).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  it('refuses IPv6 ranges that embed more of IPv4 than a /8, like 0.0.0.0/0, and takes a narrower one', async () => {
    const owner = await session();
    for (const entry of [
      '0.0.0.0/0',
      '::/96',
      '64:ff9b::/96',
      '::ffff:0:0/96',
      '::/80',
      '::ffff:0:0/95',
      '64:ff9b::/100',
    ]) {
      const reply = await create(owner, [entry]);
      expect([entry, reply.status, reply.body.details]).toEqual([
        entry,
        400,
        [{ path: 'allowedIps.0', message: expect.stringMatching(/Broader than a \/8/) }],
      ]);
    }
    const narrow = await create(owner, ['64:ff9b::a00:0/104', '::ffff:11.0.0.0/104']);
    expect(narrow.status).toBe(201);
    expect(await listed(owner, narrow.body.data.id)).toMatchObject({
      allowedIps: ['64:ff9b::a00:0/104', '11.0.0.0/8'],
    });
  });

  it('refuses an empty list and one of more than 10 entries', async () => {
    const owner = await session();
    expect((await create(owner, [])).status).toBe(400);
    const eleven = Array.from({ length: 11 }, (_, i) => `10.0.${i}.0/24`);
    expect((await create(owner, eleven)).status).toBe(400);
  });
});

describe('rotation', () => {
  const rotate = (owner: string, id: string, json?: unknown, host?: string) =>
    call(service, 'POST', `/api/v1/tokens/${id}/rotate`, { token: owner, json, host });
  const useFrom = async (rawToken: string, from = '127.0.0.1') =>
    (await call(service, 'GET', '/api/v1/projects', { token: rawToken, from })).status;

  it('answers a new token like the old one, both working during the grace period and both listed', async () => {
    const owner = await session();
    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: owner,
      json: { name: 'deploy', scopes: ['read:secrets', 'admin'], ttlDays: 30, allowedIps: ['127.0.0.0/30'] },
    });
    const old = created.body.data as { id: string; rawToken: string; expiresAt: string };
    const before = Date.now();
    const rotated = await rotate(owner, old.id, { graceHours: 2 });
    const after = Date.now();
    expect(rotated.status).toBe(201);
    const fresh = rotated.body.data;
    expect(fresh).toMatchObject({
      name: 'deploy',
      scopes: ['read:secrets', 'admin'],
      allowedIps: ['127.0.0.0/30'],
      replaces: { id: old.id },
    });
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.rawToken).not.toBe(old.rawToken);
    // The same 30 days, counted from the rotation; the old one stops two hours after it.
    const day = 24 * 60 * 60 * 1000;
    expect(Date.parse(fresh.expiresAt)).toBeGreaterThanOrEqual(before + 30 * day);
    expect(Date.parse(fresh.expiresAt)).toBeLessThanOrEqual(after + 30 * day);
    expect(Date.parse(fresh.replaces.stopsAt)).toBeGreaterThanOrEqual(before + 2 * 60 * 60 * 1000);
    expect(Date.parse(fresh.replaces.stopsAt)).toBeLessThanOrEqual(after + 2 * 60 * 60 * 1000);

    expect(await useFrom(fresh.rawToken, '127.0.0.2')).toBe(200);
    expect(await useFrom(old.rawToken, '127.0.0.2')).toBe(200);
    expect(await useFrom(fresh.rawToken, '127.0.0.5')).toBe(403);
    expect(await listed(owner, old.id)).toMatchObject({ replacedBy: fresh.id, stopsAt: fresh.replaces.stopsAt });
    expect(await listed(owner, fresh.id)).toMatchObject({
      name: 'deploy',
      expiresAt: fresh.expiresAt,
      allowedIps: ['127.0.0.0/30'],
      replacedBy: null,
      stopsAt: null,
    });
  });

  it('keeps a token bound to its creating address bound to that address, wherever the rotation comes from', async () => {
    const owner = await session();
    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: owner,
      host: '::1',
      json: { name: 'ci', scopes: ['admin'], ttlDays: null },
    });
    const rotated = await rotate(owner, created.body.data.id, undefined, '127.0.0.1');
    expect(rotated.status).toBe(201);
    expect(rotated.body.data).toMatchObject({ expiresAt: null, allowedIps: null });
    expect(await useFrom(rotated.body.data.rawToken, '::1')).toBe(200);
    expect(await useFrom(rotated.body.data.rawToken, '127.0.0.1')).toBe(403);
  });

  it('stops the old token at once with no grace period: it then fails like a revoked one', async () => {
    const owner = await session();
    const old = (
      await call(service, 'POST', '/api/v1/tokens', { token: owner, json: { name: 'x', scopes: ['admin'] } })
    ).body.data;
    const rotated = await rotate(owner, old.id, { graceHours: 0 });
    expect(rotated.status).toBe(201);
    const refused = await call(service, 'GET', '/api/v1/projects', { token: old.rawToken });
    expect([refused.status, refused.body.error]).toEqual([
      401,
      'Unauthorized: Missing or invalid authentication token',
    ]);
    expect(await useFrom(rotated.body.data.rawToken)).toBe(200);
  });

  it('answers 409 to a second rotation of the same token, and rotates its replacement', async () => {
    const owner = await session();
    const old = (
      await call(service, 'POST', '/api/v1/tokens', { token: owner, json: { name: 'x', scopes: ['admin'] } })
    ).body.data;
    const first = await rotate(owner, old.id);
    const second = await rotate(owner, old.id);
    expect([second.status, second.body.error]).toEqual([409, 'Token already rotated: rotate its replacement instead']);
    expect((await rotate(owner, first.body.data.id)).status).toBe(201);
  });

  it('is for sessions only, for the owner only, with a grace period of 0 to 168 hours', async () => {
    const owner = await session();
    const old = (
      await call(service, 'POST', '/api/v1/tokens', { token: owner, json: { name: 'x', scopes: ['admin'] } })
    ).body.data;
    const byToken = await rotate(old.rawToken, old.id);
    expect([byToken.status, byToken.body.error]).toEqual([
      403,
      'Forbidden: Token creation requires a dashboard session',
    ]);
    const byOther = await rotate(await session(), old.id);
    expect([byOther.status, byOther.body.error]).toEqual([404, 'Token not found']);
    for (const graceHours of [-1, 169, 1.5, '24']) {
      const reply = await rotate(owner, old.id, { graceHours });
      expect([reply.status, reply.body.error, reply.body.details?.[0]?.path]).toEqual([
        400,
        'Validation failed',
        'graceHours',
      ]);
    }
    expect((await rotate(owner, old.id, { graceHours: 168 })).status).toBe(201);
  });

  it('revokes the old token during its grace period on request, the new one living on', async () => {
    const owner = await session();
    const old = (
      await call(service, 'POST', '/api/v1/tokens', { token: owner, json: { name: 'x', scopes: ['admin'] } })
    ).body.data;
    const fresh = (await rotate(owner, old.id)).body.data;
    expect((await call(service, 'DELETE', `/api/v1/tokens/${old.id}`, { token: owner })).status).toBe(200);
    expect(await useFrom(old.rawToken)).toBe(401);
    expect(await useFrom(fresh.rawToken)).toBe(200);
  });

  it('takes a request with no body at all as the default grace period', async () => {
    const owner = await session();
    const old = (
      await call(service, 'POST', '/api/v1/tokens', { token: owner, json: { name: 'x', scopes: ['admin'] } })
    ).body.data;
    const before = Date.now();
    const reply = await call(service, 'POST', `/api/v1/tokens/${old.id}/rotate`, { token: owner });
    const after = Date.now();
    expect(reply.status).toBe(201);
    const stopsAt = Date.parse(reply.body.data.replaces.stopsAt);
    expect(stopsAt).toBeGreaterThanOrEqual(before + 24 * 60 * 60 * 1000);
    expect(stopsAt).toBeLessThanOrEqual(after + 24 * 60 * 60 * 1000);
  });
});

describe('GET /api/v1/me', () => {
  const subjectOf = (session: string) =>
    (JSON.parse(Buffer.from(session.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string }).sub;

  it('answers the session’s user, e-mail and the address a token created from there is bound to', async () => {
    const email = uniqueEmail('me');
    const owner = await devSession(service, email);
    const me = await call(service, 'GET', '/api/v1/me', { token: owner, from: '127.0.0.2' });
    expect([me.status, me.body.data]).toEqual([
      200,
      { userId: subjectOf(owner), email, sourceIp: '127.0.0.2', addedTo: [] },
    ]);

    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: owner,
      from: '127.0.0.2',
      json: { name: 'bound where /me says', scopes: ['admin'] },
    });
    const { rawToken } = created.body.data as { rawToken: string };
    expect((await call(service, 'GET', '/api/v1/projects', { token: rawToken, from: '127.0.0.2' })).status).toBe(200);
    expect((await call(service, 'GET', '/api/v1/projects', { token: rawToken, from: '127.0.0.1' })).status).toBe(403);
  });

  it('answers ::1 to a caller over IPv6 loopback', async () => {
    const me = await call(service, 'GET', '/api/v1/me', { token: await session(), host: '::1' });
    expect([me.status, (me.body.data as { sourceIp: string }).sourceIp]).toEqual([200, '::1']);
  });

  it('refuses an API token: the address is the dashboard’s question', async () => {
    const owner = await session();
    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: owner,
      json: { name: 'not for /me', scopes: ['admin'] },
    });
    const me = await call(service, 'GET', '/api/v1/me', {
      token: (created.body.data as { rawToken: string }).rawToken,
    });
    expect([me.status, me.body]).toEqual([
      403,
      { success: false, error: 'Forbidden: Token creation requires a dashboard session' },
    ]);
  });
});
