import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { DEFAULT_GRACE_HOURS, DEFAULT_TTL_DAYS } from '@contract/limits';
import { ConflictError, NotFoundError } from '@lambdas/domain/errors';
import type { MemberRecord, TokenRecord } from '@lambdas/domain/records';
import { type TokenStore, tokenUseCases } from '@lambdas/use-cases/tokens';
import { eventLike, now, origin, sequentialIds, session } from './fakes';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether a token still works at `at`: neither stopped after a rotation nor expired. */
const liveAt = (token: TokenRecord, at: Date) =>
  [token.stopsAt, token.expiresAt].every((end) => end === undefined || end === null || Date.parse(end) > at.getTime());

/**
 * Tokens in memory, with the events written beside them; the offboarding rules are the repository's. A
 * rotation, as in the repository, first counts the user's live tokens with the replacement against
 * `limit`, then checks the old token.
 */
const fakeTokens = (
  stored: TokenRecord[] = [],
  memberOf: readonly string[] = ['prj_A', 'prj_B'],
  limit = Number.POSITIVE_INFINITY,
) => {
  const tokens = new Map(stored.map((token) => [token.tokenId, token]));
  const events: AuditEvent[] = [];
  const store: TokenStore = {
    get: async (tokenId) => tokens.get(tokenId),
    listByUser: async (userId) => [...tokens.values()].filter((token) => token.userId === userId).reverse(),
    create: async (token, _now, _issuedAt, event) => {
      tokens.set(token.tokenId, token);
      events.push(event);
    },
    replace: async (old, replacement, stopsAt, at, _issuedAt, event) => {
      const live = [...tokens.values()].filter((token) => token.userId === old.userId && liveAt(token, at));
      if (live.length + 1 > limit) throw new ConflictError(ErrorText.tokenLimit);
      const current = tokens.get(old.tokenId);
      if (current?.userId !== old.userId) throw new NotFoundError(ErrorText.tokenNotFound);
      if (current.replacedBy !== undefined) throw new ConflictError(ErrorText.tokenRotated);
      tokens.set(old.tokenId, { ...current, replacedBy: replacement.tokenId, stopsAt });
      tokens.set(replacement.tokenId, replacement);
      events.push(event);
    },
    revoke: async (userId, tokenId, event) => {
      if (tokens.get(tokenId)?.userId !== userId) throw new NotFoundError(ErrorText.tokenNotFound);
      tokens.delete(tokenId);
      events.push(event);
    },
  };
  const memberReads: string[] = [];
  const members = {
    getMemberships: async (userId: string, projectIds: readonly string[]): Promise<MemberRecord[]> => {
      memberReads.push(...projectIds);
      return projectIds
        .filter((projectId) => memberOf.includes(projectId))
        .map((projectId) => ({
          projectId,
          projectName: projectId,
          projectCreatedAt: '',
          userId,
          role: 'member',
          addedAt: '',
        }));
    },
  };
  const useCases = tokenUseCases({ tokens: store, members, ids: sequentialIds() });
  return { ...useCases, tokens, events, memberReads };
};

const stored = (fields: Partial<TokenRecord> = {}): TokenRecord => ({
  tokenId: 'old1',
  userId: session.userId,
  name: 'ci',
  scopes: ['read:secrets'],
  secretHash: 'oldhash',
  boundIp: '198.51.100.1',
  displayPrefix: 'sk_old',
  createdAt: '2026-11-01T12:00:00.000Z',
  expiresAt: '2026-12-01T12:00:00.000Z',
  lastUsedAt: null,
  allowedIps: ['198.51.100.0/24'],
  ...fields,
});

const rejection = async (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

describe('createToken', () => {
  it('stores only the hash, bound to the caller’s address, expiring after the default days, and shows the raw token once', async () => {
    const { createToken, tokens, events } = fakeTokens();
    const shown = await createToken(session, { name: 'ci', scopes: ['read:secrets'] }, origin, now);
    const expiresAt = new Date(now.getTime() + DEFAULT_TTL_DAYS * DAY_MS).toISOString();
    expect(shown).toEqual({
      id: 'tok1',
      name: 'ci',
      rawToken: 'sk_raw1',
      displayPrefix: 'sk_raw',
      scopes: ['read:secrets'],
      expiresAt,
      projects: null,
    });
    const record = tokens.get('tok1');
    expect(record).toMatchObject({ userId: 'u-1', secretHash: 'hash1', boundIp: '203.0.113.7', expiresAt });
    expect(JSON.stringify(record)).not.toContain('sk_raw1');
    expect(record?.ownerEmail).toBe('ada@example.com');
    expect(events).toEqual([
      eventLike('token.created', {
        target: expect.objectContaining({ tokenId: 'tok1' }),
        details: expect.objectContaining({ name: 'ci', scopes: ['read:secrets'], expiresAt }),
      }),
    ]);
  });

  it('creates a token that never expires when ttlDays is null', async () => {
    const { createToken } = fakeTokens();
    expect((await createToken(session, { name: 'ci', scopes: [], ttlDays: null }, origin, now)).expiresAt).toBeNull();
  });

  it('stores an allow-list in canonical form', async () => {
    const { createToken, tokens } = fakeTokens();
    await createToken(
      session,
      { name: 'ci', scopes: [], allowedIps: ['10.1.2.3/16', '::ffff:192.0.2.1', '64:ff9b::a00:1/104'] },
      origin,
      now,
    );
    expect(tokens.get('tok1')?.allowedIps).toEqual(['10.1.0.0/16', '192.0.2.1', '64:ff9b::a00:0/104']);
  });

  it.each([
    [['not-an-ip'], 'allowedIps.0', 'Not an IP address or CIDR'],
    [['10.0.0.0/7'], 'allowedIps.0', 'Broader than a /8'],
    [['10.0.0.0/8', '10.1.0.0/16'], 'allowedIps.1', 'Overlaps allowedIps.0'],
    [['10.0.0.1', '10.0.0.1/32'], 'allowedIps.1', 'The same as allowedIps.0'],
    [['64:ff9b::/103'], 'allowedIps.0', 'Broader than a /8 of the IPv4 addresses it embeds'],
    [['10.0.0.0/8', 'not-an-ip'], 'allowedIps.1', 'Not an IP address or CIDR'],
  ])('refuses the allow-list %j with 400 naming the entry and why', async (allowedIps, path, why) => {
    const { createToken, tokens } = fakeTokens();
    const error = await rejection(createToken(session, { name: 'ci', scopes: [], allowedIps }, origin, now));
    expect(error).toMatchObject({ status: 400, message: ErrorText.validation });
    expect(error).toMatchObject({ details: [{ path, message: expect.stringContaining(why) }] });
    expect(tokens.size).toBe(0);
  });

  it('says why a broad network is refused, and names every refused entry in order', async () => {
    const { createToken } = fakeTokens();
    const allowedIps = ['10.0.0.0/8', '10.1.0.0/16', '0.0.0.0/0'];
    const error = await rejection(createToken(session, { name: 'ci', scopes: [], allowedIps }, origin, now));
    expect(error).toMatchObject({
      details: [
        { path: 'allowedIps.1', message: 'Overlaps allowedIps.0' },
        {
          path: 'allowedIps.2',
          message:
            'Broader than a /8: an allow-list names the few networks a token is used from, not a share of the Internet',
        },
      ],
    });
  });

  it('refuses a caller that is not a session (401) and stores nothing', async () => {
    const { createToken, tokens } = fakeTokens();
    const token = { ...session, kind: 'token' as const, issuedAt: undefined };
    await expect(createToken(token, { name: 'ci', scopes: [] }, origin, now)).rejects.toMatchObject({
      status: 401,
      message: ErrorText.unauthorized,
    });
    expect(tokens.size).toBe(0);
  });

  it('refuses a request without a source address (401)', async () => {
    const { createToken } = fakeTokens();
    await expect(
      createToken(session, { name: 'ci', scopes: [] }, { ...origin, sourceIp: null }, now),
    ).rejects.toMatchObject({ status: 401 });
  });
});

describe('createToken limited to projects', () => {
  const projects = [{ projectId: 'prj_A' }, { projectId: 'prj_B', environments: ['staging'] }];

  it('stores the projects after reading the caller’s membership of each, and shows them', async () => {
    const { createToken, tokens, memberReads } = fakeTokens();
    const shown = await createToken(session, { name: 'ci', scopes: ['admin'], projects }, origin, now);
    expect(shown.projects).toEqual([
      { projectId: 'prj_A', environments: null },
      { projectId: 'prj_B', environments: ['staging'] },
    ]);
    expect(tokens.get('tok1')?.projects).toEqual(projects);
    expect(memberReads.sort()).toEqual(['prj_A', 'prj_B']);
  });

  it('answers 404 Project not found for a project the caller is not a member of, and stores nothing', async () => {
    const { createToken, tokens } = fakeTokens([], ['prj_A']);
    const error = await rejection(createToken(session, { name: 'ci', scopes: ['admin'], projects }, origin, now));
    expect(error).toMatchObject({ status: 404, message: ErrorText.projectNotFound });
    expect(tokens.size).toBe(0);
  });

  it('reads no membership for a token without projects', async () => {
    const { createToken, memberReads, tokens } = fakeTokens();
    await createToken(session, { name: 'ci', scopes: ['admin'] }, origin, now);
    expect(memberReads).toEqual([]);
    expect(tokens.get('tok1')?.projects).toBeUndefined();
  });

  it('lists and rotates a limited token with its projects', async () => {
    const { listTokens, rotateToken, tokens } = fakeTokens([stored({ projects })]);
    expect((await listTokens(session))[0]?.projects).toEqual([
      { projectId: 'prj_A', environments: null },
      { projectId: 'prj_B', environments: ['staging'] },
    ]);
    const shown = await rotateToken(session, 'old1', undefined, origin, now);
    expect(shown.projects).toEqual([
      { projectId: 'prj_A', environments: null },
      { projectId: 'prj_B', environments: ['staging'] },
    ]);
    expect(tokens.get('tok1')?.projects).toEqual(projects);
  });
});

describe('listTokens', () => {
  it('lists the caller’s tokens without secret, hash or bound address', async () => {
    const { listTokens } = fakeTokens([stored(), stored({ tokenId: 'other', userId: 'u-2' })]);
    const listed = await listTokens(session);
    expect(listed).toEqual([
      {
        id: 'old1',
        name: 'ci',
        displayPrefix: 'sk_old',
        scopes: ['read:secrets'],
        createdAt: '2026-11-01T12:00:00.000Z',
        expiresAt: '2026-12-01T12:00:00.000Z',
        lastUsedAt: null,
        lastUsedIp: null,
        allowedIps: ['198.51.100.0/24'],
        replacedBy: null,
        stopsAt: null,
        projects: null,
      },
    ]);
  });
});

describe('revokeToken', () => {
  it('revokes the caller’s token with a token.revoked event', async () => {
    const { revokeToken, tokens, events } = fakeTokens([stored()]);
    await revokeToken(session, 'old1', origin, now);
    expect(tokens.has('old1')).toBe(false);
    expect(events).toEqual([eventLike('token.revoked', { target: expect.objectContaining({ tokenId: 'old1' }) })]);
  });

  it('answers 404 for a token of another user', async () => {
    const { revokeToken, tokens } = fakeTokens([stored({ userId: 'u-2' })]);
    await expect(revokeToken(session, 'old1', origin, now)).rejects.toMatchObject({
      status: 404,
      message: ErrorText.tokenNotFound,
    });
    expect(tokens.has('old1')).toBe(true);
  });
});

describe('rotateToken', () => {
  it('replaces the token with one of the same name, scopes and addresses, living as long, the old one stopping after the grace', async () => {
    const { rotateToken, tokens, events } = fakeTokens([stored({ expiresAt: '2027-11-01T12:00:00.000Z' })]);
    const shown = await rotateToken(session, 'old1', undefined, origin, now);
    const stopsAt = new Date(now.getTime() + DEFAULT_GRACE_HOURS * 60 * 60 * 1000).toISOString();
    const expiresAt = new Date(now.getTime() + 365 * DAY_MS).toISOString();
    expect(shown).toEqual({
      id: 'tok1',
      name: 'ci',
      rawToken: 'sk_raw1',
      displayPrefix: 'sk_raw',
      scopes: ['read:secrets'],
      expiresAt,
      allowedIps: ['198.51.100.0/24'],
      projects: null,
      replaces: { id: 'old1', stopsAt },
    });
    expect(tokens.get('old1')).toMatchObject({ replacedBy: 'tok1', stopsAt });
    expect(tokens.get('tok1')).toMatchObject({ boundIp: '198.51.100.1', secretHash: 'hash1', expiresAt });
    expect(events).toEqual([
      eventLike('token.rotated', {
        target: expect.objectContaining({ tokenId: 'old1' }),
        details: expect.objectContaining({ replacedBy: 'tok1', stopsAt, expiresAt }),
      }),
    ]);
  });

  it('stops the old token at its own expiry when that comes before the grace ends', async () => {
    const { rotateToken } = fakeTokens([stored({ expiresAt: '2026-11-25T13:00:00.000Z' })]);
    const shown = await rotateToken(session, 'old1', { graceHours: 48 }, origin, now);
    expect(shown.replaces.stopsAt).toBe('2026-11-25T13:00:00.000Z');
  });

  it('keeps a token that never expires never expiring', async () => {
    const { rotateToken } = fakeTokens([stored({ expiresAt: null })]);
    expect((await rotateToken(session, 'old1', { graceHours: 1 }, origin, now)).expiresAt).toBeNull();
  });

  it('answers 404 for a token of another user or none, and 409 for a token rotated already', async () => {
    const other = fakeTokens([stored({ userId: 'u-2' })]);
    for (const tokenId of ['old1', 'tok9']) {
      await expect(other.rotateToken(session, tokenId, undefined, origin, now)).rejects.toMatchObject({
        status: 404,
        message: ErrorText.tokenNotFound,
      });
    }
    const rotated = fakeTokens([stored({ replacedBy: 'newer' })]);
    await expect(rotated.rotateToken(session, 'old1', undefined, origin, now)).rejects.toMatchObject({
      status: 409,
      message: ErrorText.tokenRotated,
    });
    expect(rotated.events).toEqual([]);
  });

  it('answers 409 Token already rotated for a rotated token even when the caller holds as many tokens as allowed', async () => {
    const stopsAt = '2026-11-26T12:00:00.000Z';
    const full = fakeTokens([stored({ replacedBy: 'newer', stopsAt }), stored({ tokenId: 'newer' })], [], 2);
    await expect(full.rotateToken(session, 'old1', undefined, origin, now)).rejects.toMatchObject({
      status: 409,
      message: ErrorText.tokenRotated,
    });
    await expect(full.rotateToken(session, 'newer', undefined, origin, now)).rejects.toMatchObject({
      status: 409,
      message: ErrorText.tokenLimit,
    });
    expect(full.events).toEqual([]);
  });

  it('refuses a caller that is not a session (401)', async () => {
    const { rotateToken } = fakeTokens([stored()]);
    await expect(
      rotateToken({ ...session, issuedAt: undefined }, 'old1', undefined, origin, now),
    ).rejects.toMatchObject({
      status: 401,
    });
  });
});
