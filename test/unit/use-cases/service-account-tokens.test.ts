import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { DEFAULT_GRACE_HOURS } from '@contract/limits';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
} from '@lambdas/domain/errors';
import type { Principal } from '@lambdas/domain/principal';
import type { MemberRecord, ServiceAccountRecord, TokenPlace, TokenRecord } from '@lambdas/domain/records';
import { type ServiceAccountTokenStore, serviceAccountTokenUseCases } from '@lambdas/use-cases/service-account-tokens';
import { eventLike, memberRecord, now, origin, sequentialIds, session } from './fakes';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const projectId = 'prj_a';
const otherProject = 'prj_b';
const serviceAccountId = 'sa_0123456789abcdef';
const member = (userId: string, role: MemberRecord['role'], project = projectId) => memberRecord(userId, role, project);
const account = (access: ServiceAccountRecord['access'] = {}, project = projectId): ServiceAccountRecord => ({
  projectId: project,
  serviceAccountId,
  name: 'deploy',
  description: null,
  access,
  createdAt: '2026-11-01T00:00:00.000Z',
  createdBy: { userId: 'u-1', email: 'ada@example.com' },
});

/** One of the service account's static tokens as stored. */
const stored = (fields: Partial<TokenRecord> = {}): TokenRecord => ({
  tokenId: 'old1',
  userId: serviceAccountId,
  name: 'ci',
  scopes: [],
  secretHash: 'hash-old',
  boundIp: '198.51.100.1',
  displayPrefix: 'svc_li',
  createdAt: '2026-11-20T12:00:00.000Z',
  expiresAt: '2026-12-20T12:00:00.000Z',
  lastUsedAt: null,
  serviceAccountProject: projectId,
  ...fields,
});

/** A project's members, its service account and the tokens in memory, with every write's event and place. */
const fakeTokens = (accounts: ServiceAccountRecord[], tokens: TokenRecord[] = [], members = team()) => {
  const byId = new Map(tokens.map((token) => [token.tokenId, token]));
  const events: AuditEvent[] = [];
  const writes: { write: string; at: TokenPlace; sessionIssuedAt?: string; stopsAt?: string }[] = [];
  const store: ServiceAccountTokenStore = {
    getMember: async (project, userId) => members.find((m) => m.projectId === project && m.userId === userId),
    getServiceAccount: async (project, id) =>
      accounts.find((entry) => entry.projectId === project && entry.serviceAccountId === id),
    getToken: async (tokenId) => byId.get(tokenId),
    listTokens: async (id) => [...byId.values()].filter((token) => token.userId === id).reverse(),
    createToken: async (token, _now, sessionIssuedAt, event, at) => {
      byId.set(token.tokenId, token);
      events.push(event);
      writes.push({ write: 'create', at, sessionIssuedAt });
    },
    replaceToken: async (old, replacement, stopsAt, _now, sessionIssuedAt, event, at) => {
      byId.set(old.tokenId, { ...old, replacedBy: replacement.tokenId, stopsAt });
      byId.set(replacement.tokenId, replacement);
      events.push(event);
      writes.push({ write: 'replace', at, sessionIssuedAt, stopsAt });
    },
    revokeToken: async (_id, tokenId, event, at) => {
      byId.delete(tokenId);
      events.push(event);
      writes.push({ write: 'revoke', at });
    },
  };
  const useCases = serviceAccountTokenUseCases({ store, ids: sequentialIds() });
  return { ...useCases, tokens: byId, events, writes };
};

const as = (userId: string): Principal => ({ ...session, userId });
function team() {
  return [member('u-1', 'owner'), member('u-2', 'admin'), member('u-3', 'member')];
}

describe('createToken of a service account', () => {
  it('mints a token of the service account’s, bound to the creating address, shown once with today’s scopes', async () => {
    const tokens = fakeTokens([account({ staging: { level: 'read' } })]);

    const created = await tokens.createToken(
      as('u-2'),
      projectId,
      serviceAccountId,
      { name: 'ci', ttlDays: 30 },
      origin,
      now,
    );

    const expiresAt = new Date(now.getTime() + 30 * DAY_MS).toISOString();
    expect(created).toEqual({
      id: 'tok1',
      name: 'ci',
      rawToken: 'sk_raw1',
      displayPrefix: 'sk_raw',
      scopes: ['read:secrets'],
      expiresAt,
      allowedIps: null,
    });
    expect(tokens.tokens.get('tok1')).toEqual({
      tokenId: 'tok1',
      userId: serviceAccountId,
      name: 'ci',
      scopes: [],
      secretHash: 'hash1',
      boundIp: origin.sourceIp,
      displayPrefix: 'sk_raw',
      createdAt: now.toISOString(),
      expiresAt,
      lastUsedAt: null,
      serviceAccountProject: projectId,
    });
    expect(tokens.writes).toEqual([
      { write: 'create', at: { projectId, managerUserId: 'u-2' }, sessionIssuedAt: session.issuedAt },
    ]);
    expect(tokens.events).toEqual([
      eventLike('service_account.token.created', {
        target: expect.objectContaining({ projectId, serviceAccountId, tokenId: 'tok1' }),
        details: expect.objectContaining({ name: 'ci', expiresAt }),
      }),
    ]);
  });

  it('answers write:secrets too while the service account writes some environment', async () => {
    const tokens = fakeTokens([account({ staging: { level: 'read' }, production: { level: 'write' } })]);

    const created = await tokens.createToken(
      as('u-1'),
      projectId,
      serviceAccountId,
      { name: 'ci', ttlDays: 1 },
      origin,
      now,
    );

    expect(created.scopes).toEqual(['read:secrets', 'write:secrets']);
  });

  it('keeps the addresses it is allowed from, checked as a person’s token’s are', async () => {
    const tokens = fakeTokens([account()]);
    const request = { name: 'ci', ttlDays: 1, allowedIps: ['10.1.0.0/16'] };

    const created = await tokens.createToken(as('u-1'), projectId, serviceAccountId, request, origin, now);

    expect(created.allowedIps).toEqual(['10.1.0.0/16']);
    expect(tokens.tokens.get('tok1')?.allowedIps).toEqual(['10.1.0.0/16']);
    await expect(
      tokens.createToken(
        as('u-1'),
        projectId,
        serviceAccountId,
        { ...request, allowedIps: ['0.0.0.0/0'] },
        origin,
        now,
      ),
    ).rejects.toBeInstanceOf(BadRequestError);
  });

  it('refuses a caller without an address or a session (401), a member (403), a stranger and another project’s account (404)', async () => {
    const tokens = fakeTokens([account({}, otherProject)], [], [...team(), member('u-1', 'owner', otherProject)]);
    const request = { name: 'ci', ttlDays: 1 };
    const create = (caller: Principal, at = origin, project = otherProject) =>
      tokens.createToken(caller, project, serviceAccountId, request, at, now);

    await expect(create(as('u-1'), { ...origin, sourceIp: null })).rejects.toBeInstanceOf(UnauthorizedError);
    const token: Principal = { kind: 'token', userId: 'u-1', tokenId: 't', scopes: ['admin'] };
    await expect(create(token)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(create(as('u-3'), origin, projectId)).rejects.toEqual(new ForbiddenError(ErrorText.projectRole));
    await expect(create(as('u-9'), origin, projectId)).rejects.toEqual(new NotFoundError(ErrorText.projectNotFound));
    await expect(create(as('u-1'), origin, projectId)).rejects.toEqual(
      new NotFoundError(ErrorText.serviceAccountNotFound),
    );
    expect([tokens.tokens.size, tokens.events]).toEqual([0, []]);
  });
});

describe('listTokens of a service account', () => {
  it('lists its tokens of this project, newest first, without secret, hash or bound address', async () => {
    const old = stored({ lastUsedIp: '198.51.100.9', lastUsedAt: '2026-11-24T00:00:00.000Z' });
    const newer = stored({
      tokenId: 'new1',
      name: 'cd',
      allowedIps: ['10.0.0.0/8'],
      replacedBy: 'tok9',
      stopsAt: '2026-11-26T00:00:00.000Z',
    });
    const stray = stored({ tokenId: 'stray', serviceAccountProject: otherProject });
    const tokens = fakeTokens([account()], [old, stray, newer]);

    const listed = await tokens.listTokens(as('u-2'), projectId, serviceAccountId);

    expect(listed).toEqual([
      {
        id: 'new1',
        name: 'cd',
        displayPrefix: 'svc_li',
        createdAt: newer.createdAt,
        expiresAt: newer.expiresAt,
        lastUsedAt: null,
        lastUsedIp: null,
        allowedIps: ['10.0.0.0/8'],
        replacedBy: 'tok9',
        stopsAt: '2026-11-26T00:00:00.000Z',
      },
      {
        id: 'old1',
        name: 'ci',
        displayPrefix: 'svc_li',
        createdAt: old.createdAt,
        expiresAt: old.expiresAt,
        lastUsedAt: '2026-11-24T00:00:00.000Z',
        lastUsedIp: '198.51.100.9',
        allowedIps: null,
        replacedBy: null,
        stopsAt: null,
      },
    ]);
  });

  it('lists for the owner and admins only', async () => {
    const tokens = fakeTokens([account()], [stored()]);

    await expect(tokens.listTokens(as('u-3'), projectId, serviceAccountId)).rejects.toEqual(
      new ForbiddenError(ErrorText.projectRole),
    );
    await expect(tokens.listTokens(as('u-9'), projectId, serviceAccountId)).rejects.toEqual(
      new NotFoundError(ErrorText.projectNotFound),
    );
  });
});

describe('revokeToken of a service account', () => {
  it('deletes its token with an event naming it', async () => {
    const tokens = fakeTokens([account()], [stored()]);

    await tokens.revokeToken(as('u-1'), projectId, serviceAccountId, 'old1', origin, now);

    expect(tokens.tokens.has('old1')).toBe(false);
    expect(tokens.writes).toEqual([{ write: 'revoke', at: { projectId, managerUserId: 'u-1' } }]);
    expect(tokens.events).toEqual([
      eventLike('service_account.token.revoked', {
        target: expect.objectContaining({ projectId, serviceAccountId, tokenId: 'old1' }),
        details: expect.objectContaining({ name: 'ci', expiresAt: '2026-12-20T12:00:00.000Z' }),
      }),
    ]);
  });

  it.each([
    ['a person’s token', stored({ userId: 'u-1', serviceAccountProject: undefined })],
    ['a token of another service account of the project', stored({ userId: 'sa_fedcba9876543210' })],
    ['a token of the same service account id in another project', stored({ serviceAccountProject: otherProject })],
    ['a token it got by signing in', stored({ subject: 'https://token.actions.githubusercontent.com#repo:acme' })],
  ])('answers 404 for %s, touching nothing', async (_label, token) => {
    const tokens = fakeTokens([account()], [token]);

    await expect(tokens.revokeToken(as('u-1'), projectId, serviceAccountId, 'old1', origin, now)).rejects.toEqual(
      new NotFoundError(ErrorText.tokenNotFound),
    );
    await expect(tokens.revokeToken(as('u-1'), projectId, serviceAccountId, 'none', origin, now)).rejects.toEqual(
      new NotFoundError(ErrorText.tokenNotFound),
    );
    expect([tokens.tokens.has('old1'), tokens.events]).toEqual([true, []]);
  });

  it('lets a member revoke nothing', async () => {
    const tokens = fakeTokens([account()], [stored()]);

    await expect(tokens.revokeToken(as('u-3'), projectId, serviceAccountId, 'old1', origin, now)).rejects.toEqual(
      new ForbiddenError(ErrorText.projectRole),
    );
    expect(tokens.tokens.has('old1')).toBe(true);
  });
});

describe('rotateToken of a service account', () => {
  it('replaces its token with one of the same name, addresses and life from now; the old one stops after the grace hours', async () => {
    const old = stored({ allowedIps: ['10.1.0.0/16'] });
    const tokens = fakeTokens([account({ production: { level: 'write' } })], [old]);

    const rotated = await tokens.rotateToken(
      as('u-2'),
      projectId,
      serviceAccountId,
      'old1',
      { graceHours: 2 },
      origin,
      now,
    );

    const expiresAt = new Date(now.getTime() + 30 * DAY_MS).toISOString();
    const stopsAt = new Date(now.getTime() + 2 * HOUR_MS).toISOString();
    expect(rotated).toEqual({
      id: 'tok1',
      name: 'ci',
      rawToken: 'sk_raw1',
      displayPrefix: 'sk_raw',
      scopes: ['read:secrets', 'write:secrets'],
      expiresAt,
      allowedIps: ['10.1.0.0/16'],
      replaces: { id: 'old1', stopsAt },
    });
    expect(tokens.tokens.get('tok1')).toMatchObject({
      userId: serviceAccountId,
      serviceAccountProject: projectId,
      boundIp: old.boundIp,
      allowedIps: ['10.1.0.0/16'],
      scopes: [],
      expiresAt,
    });
    expect(tokens.tokens.get('old1')).toMatchObject({ replacedBy: 'tok1', stopsAt });
    expect(tokens.writes).toEqual([
      { write: 'replace', at: { projectId, managerUserId: 'u-2' }, sessionIssuedAt: session.issuedAt, stopsAt },
    ]);
    expect(tokens.events).toEqual([
      eventLike('service_account.token.rotated', {
        target: expect.objectContaining({ projectId, serviceAccountId, tokenId: 'old1' }),
        details: expect.objectContaining({ name: 'ci', expiresAt, replacedBy: 'tok1', stopsAt }),
      }),
    ]);
  });

  it(`lets the old token work on for ${DEFAULT_GRACE_HOURS} hours when no grace is asked for`, async () => {
    const tokens = fakeTokens([account()], [stored()]);

    const rotated = await tokens.rotateToken(as('u-1'), projectId, serviceAccountId, 'old1', undefined, origin, now);

    expect(rotated.replaces.stopsAt).toBe(new Date(now.getTime() + DEFAULT_GRACE_HOURS * HOUR_MS).toISOString());
  });

  it('refuses a token rotated already (409), one not its own or got by signing in (404), a member (403) and a caller without a session (401)', async () => {
    const tokens = fakeTokens(
      [account()],
      [
        stored({ replacedBy: 'tok0' }),
        stored({ tokenId: 'signed', subject: 'arn:aws:iam::123456789012:role/x' }),
        stored({ tokenId: 'another', userId: 'sa_fedcba9876543210' }),
        stored({ tokenId: 'elsewhere', serviceAccountProject: otherProject }),
      ],
    );
    const rotate = (caller: Principal, tokenId: string) =>
      tokens.rotateToken(caller, projectId, serviceAccountId, tokenId, undefined, origin, now);

    await expect(rotate(as('u-1'), 'old1')).rejects.toEqual(new ConflictError(ErrorText.tokenRotated));
    for (const tokenId of ['signed', 'another', 'elsewhere', 'none']) {
      await expect(rotate(as('u-1'), tokenId)).rejects.toEqual(new NotFoundError(ErrorText.tokenNotFound));
    }
    await expect(rotate(as('u-3'), 'old1')).rejects.toEqual(new ForbiddenError(ErrorText.projectRole));
    const token: Principal = { kind: 'token', userId: 'u-1', tokenId: 't', scopes: ['admin'] };
    await expect(rotate(token, 'old1')).rejects.toBeInstanceOf(UnauthorizedError);
    expect([tokens.tokens.size, tokens.events]).toEqual([4, []]);
  });
});
