import { ErrorText } from '@contract/errors';
import { addMemberRoute } from '@contract/routes/add-member';
import { createTokenRoute } from '@contract/routes/create-token';
import { getSecretRoute } from '@contract/routes/get-secret';
import { listMembersRoute } from '@contract/routes/list-members';
import { type AuthorizerDeps, authorize } from '@lambdas/authorizer/authorize';
import { SessionExpiredError, SessionInvalidError } from '@lambdas/authorizer/session-errors';
import type { ServiceAccountRecord, TokenRecord } from '@lambdas/domain/records';
import { mintToken, withChecksum } from '@lambdas/domain/token-format';
import { storedToken } from './stored-token';

const now = new Date('2026-11-21T12:00:00.000Z');
const minted = mintToken();
const stored = storedToken(minted, { expiresAt: '2026-12-01T00:00:00.000Z' });

const identity = { userId: 's-1', email: 's@x.io', issuedAt: '2026-11-21T11:00:00.000Z' };

const deps = (token: TokenRecord | null = stored, session?: () => Promise<typeof identity>, admitted = true) => {
  const calls = { getToken: 0, admitSession: 0, getServiceAccount: 0 };
  const fake: AuthorizerDeps = {
    getToken: async () => {
      calls.getToken += 1;
      return token ?? undefined;
    },
    getServiceAccount: async () => {
      calls.getServiceAccount += 1;
      return undefined;
    },
    verifySession: session ?? (async () => identity),
    admitSession: async () => {
      calls.admitSession += 1;
      return admitted;
    },
  };
  return { fake, calls };
};

const request = (authorization: string[], overrides: Partial<Parameters<typeof authorize>[0]> = {}) => ({
  authorization,
  sourceIp: '203.0.113.7',
  tokenScope: listMembersRoute.tokenScope,
  resource: listMembersRoute.path,
  pathParameters: { projectId: 'prj_A' },
  now,
  ...overrides,
});

describe('authorize with an API token', () => {
  it('allows a valid token on a route its scope covers, as its owner with the token’s scopes only', async () => {
    const decision = await authorize(request([`Bearer ${minted.rawToken}`]), deps().fake);
    expect(decision).toEqual({
      outcome: 'allow',
      principal: { kind: 'token', userId: 'user-1', tokenId: minted.tokenId, scopes: ['read:secrets'] },
      tokenLastUsedAt: null,
    });
  });

  it('rejects, without reading the database, a token whose checksum is right but whose form is wrong', async () => {
    // withChecksum gives each a valid checksum: only the prefix, length and alphabet checks refuse them.
    const secret = minted.rawToken.slice(9, 45);
    for (const candidate of [
      withChecksum(`svc_live_${secret.slice(1)}`),
      withChecksum(`svc_live_${secret}A`),
      withChecksum(`svc_live_${secret.slice(1)}-`),
    ]) {
      const { fake, calls } = deps();
      const decision = await authorize(request([`Bearer ${candidate}`]), fake);
      expect(decision).toEqual({ outcome: 'unauthorized', rule: 'malformed-token' });
      expect(calls.getToken).toBe(0);
    }
  });

  it('rejects a malformed token without reading the database', async () => {
    const { fake, calls } = deps();
    const decision = await authorize(
      request([`Bearer ${minted.rawToken.slice(0, -1)}${minted.rawToken.endsWith('X') ? 'Y' : 'X'}`]),
      fake,
    );
    expect(decision.outcome).toBe('unauthorized');
    expect(calls.getToken).toBe(0);
  });

  it.each([
    ['no header', []],
    ['two headers', [`Bearer ${minted.rawToken}`, `Bearer ${minted.rawToken}`]],
    ['Basic', ['Basic abc']],
    ['a missing credential', ['Bearer']],
    ['extra spaces', [`Bearer  ${minted.rawToken}`]],
    ['a trailing space', [`Bearer ${minted.rawToken} `]],
    ['Bearer after another scheme', [`Basic x Bearer ${minted.rawToken}`]],
    ['a second word after the token', [`Bearer ${minted.rawToken} extra`]],
  ])('answers unauthorized for %s', async (_label, authorization) => {
    expect((await authorize(request(authorization), deps().fake)).outcome).toBe('unauthorized');
  });

  it('accepts the scheme in any case', async () => {
    expect((await authorize(request([`bearer ${minted.rawToken}`]), deps().fake)).outcome).toBe('allow');
  });

  it('answers unauthorized for an unknown or revoked token and a hash mismatch', async () => {
    expect((await authorize(request([`Bearer ${minted.rawToken}`]), deps(null).fake)).outcome).toBe('unauthorized');
    const other = mintToken();
    const wrongHash = { ...stored, secretHash: other.hash };
    expect((await authorize(request([`Bearer ${minted.rawToken}`]), deps(wrongHash).fake)).outcome).toBe(
      'unauthorized',
    );
  });

  it('lets a rotated token through until it stops, then refuses it like a revoked one, with nothing to record', async () => {
    const rotated = { ...stored, replacedBy: 'BBBBBBBBBBBB', stopsAt: '2026-11-21T13:00:00.000Z' };
    const at = (time: string, fields: Partial<typeof stored> = {}) =>
      authorize(request([`Bearer ${minted.rawToken}`], { now: new Date(time) }), deps({ ...rotated, ...fields }).fake);
    expect((await at('2026-11-21T12:59:59.999Z')).outcome).toBe('allow');
    expect(await at('2026-11-21T13:00:00.000Z')).toEqual({ outcome: 'unauthorized', rule: 'token-replaced' });
    // Stopped is stopped, whatever else is wrong with the request.
    expect(await at('2026-12-02T00:00:00.000Z')).toEqual({ outcome: 'unauthorized', rule: 'token-replaced' });
  });

  it('lets a token with an allow-list through from its networks only, its creating address no more', async () => {
    const listed = { ...stored, allowedIps: ['198.51.100.0/24', '2001:db8::/32', 'not a network'] };
    const from = async (sourceIp: string) =>
      (await authorize(request([`Bearer ${minted.rawToken}`], { sourceIp }), deps(listed).fake)).outcome;
    expect(await from('198.51.100.9')).toBe('allow');
    expect(await from('::ffff:198.51.100.9')).toBe('allow');
    expect(await from('2001:db8:1::7')).toBe('allow');
    expect(await from(stored.boundIp)).toBe('forbidden');
    expect(await from('198.51.101.9')).toBe('forbidden');
    // An entry that does not parse holds nothing, and a list of only such entries lets nobody in.
    const broken = { ...stored, allowedIps: ['not a network'] };
    const decision = await authorize(
      request([`Bearer ${minted.rawToken}`], { sourceIp: stored.boundIp }),
      deps(broken).fake,
    );
    expect(decision).toMatchObject({ outcome: 'forbidden', rule: 'token-ip' });
  });

  it('refuses a token whose expiry or stop instant does not parse, rather than letting it through', async () => {
    const use = (fields: Partial<typeof stored>) =>
      authorize(request([`Bearer ${minted.rawToken}`]), deps({ ...stored, ...fields }).fake);
    expect((await use({ expiresAt: 'not a time' })).outcome).toBe('expired');
    expect((await use({ replacedBy: 'BBBBBBBBBBBB', stopsAt: 'not a time' })).outcome).toBe('unauthorized');
  });

  it('answers expired at and after expiresAt, before checking IP or scope', async () => {
    const at = new Date(stored.expiresAt ?? '');
    const decision = await authorize(
      request([`Bearer ${minted.rawToken}`], {
        now: at,
        sourceIp: '198.51.100.1',
        tokenScope: addMemberRoute.tokenScope,
      }),
      deps().fake,
    );
    expect(decision).toEqual({
      outcome: 'expired',
      rule: 'token-expired',
      denied: { tokenId: minted.tokenId, userId: 'user-1', ownerEmail: null, reason: 'expired' },
    });
  });

  it('never expires a token without expiresAt', async () => {
    const forever = { ...stored, expiresAt: null };
    const decision = await authorize(
      request([`Bearer ${minted.rawToken}`], { now: new Date('2099-01-01') }),
      deps(forever).fake,
    );
    expect(decision.outcome).toBe('allow');
  });

  it('forbids another source IP, in any spelling of the address', async () => {
    const other = await authorize(request([`Bearer ${minted.rawToken}`], { sourceIp: '203.0.113.8' }), deps().fake);
    // The rule names the IP denial: the handler counts it as the `wrong_ip` metric outcome by it.
    expect(other).toEqual({
      outcome: 'forbidden',
      rule: 'token-ip',
      error: ErrorText.wrongIp,
      denied: { tokenId: minted.tokenId, userId: 'user-1', ownerEmail: null, reason: 'ip' },
    });
    const mapped = await authorize(
      request([`Bearer ${minted.rawToken}`], { sourceIp: '::ffff:203.0.113.7' }),
      deps().fake,
    );
    expect(mapped.outcome).toBe('allow');
  });

  it('forbids a route its scope does not cover, after the IP check', async () => {
    const decision = await authorize(
      request([`Bearer ${minted.rawToken}`], { tokenScope: addMemberRoute.tokenScope }),
      deps().fake,
    );
    expect(decision).toMatchObject({ outcome: 'forbidden', error: ErrorText.scope, denied: { reason: 'scope' } });
    const wrongIp = await authorize(
      request([`Bearer ${minted.rawToken}`], { tokenScope: addMemberRoute.tokenScope, sourceIp: '1.1.1.1' }),
      deps().fake,
    );
    expect(wrongIp).toMatchObject({ error: ErrorText.wrongIp });
  });

  it('forbids token creation with any token, even admin', async () => {
    const admin = { ...stored, scopes: ['admin' as const] };
    const decision = await authorize(
      request([`Bearer ${minted.rawToken}`], { tokenScope: createTokenRoute.tokenScope }),
      deps(admin).fake,
    );
    expect(decision).toMatchObject({
      outcome: 'forbidden',
      error: ErrorText.sessionRequired,
      denied: { tokenId: minted.tokenId, reason: 'scope' },
    });
  });

  it("carries the owner's e-mail of the token's creation, for the record only, when the token has one", async () => {
    const recorded = { ...stored, ownerEmail: 'owner@example.com' };
    const allowed = await authorize(request([`Bearer ${minted.rawToken}`]), deps(recorded).fake);
    expect(allowed).toMatchObject({ outcome: 'allow', principal: { email: 'owner@example.com' } });
    const refused = await authorize(
      request([`Bearer ${minted.rawToken}`], { sourceIp: '203.0.113.8' }),
      deps(recorded).fake,
    );
    expect(refused).toMatchObject({ denied: { ownerEmail: 'owner@example.com' } });
    const without = await authorize(request([`Bearer ${minted.rawToken}`]), deps().fake);
    expect(without.outcome === 'allow' && 'email' in without.principal).toBe(false);
  });

  it('names the rule that decided, for the log and the metric', async () => {
    const bearer = [`Bearer ${minted.rawToken}`];
    const cases: [Parameters<typeof authorize>[0], AuthorizerDeps, string][] = [
      [request([]), deps().fake, 'authorization-header-count'],
      [request(['Basic abc']), deps().fake, 'authorization-scheme'],
      [request(bearer, { tokenScope: undefined }), deps().fake, 'unknown-route'],
      [request([`Bearer ${minted.rawToken.slice(0, -1)}`]), deps().fake, 'malformed-token'],
      [request(bearer), deps(null).fake, 'unknown-token'],
      [request(bearer, { now: new Date('2099-01-01') }), deps().fake, 'token-expired'],
      [request(bearer, { sourceIp: '203.0.113.8' }), deps().fake, 'token-ip'],
      [request(bearer, { tokenScope: createTokenRoute.tokenScope }), deps().fake, 'session-required'],
      [request(bearer, { tokenScope: addMemberRoute.tokenScope }), deps().fake, 'token-scope'],
      [
        request(['Bearer eyJ.a.b']),
        deps(stored, () => Promise.reject(new SessionExpiredError('x'))).fake,
        'session-expired',
      ],
      [
        request(['Bearer eyJ.a.b']),
        deps(stored, () => Promise.reject(new SessionInvalidError('audience'))).fake,
        'session-audience',
      ],
    ];
    for (const [input, fake, rule] of cases) expect(await authorize(input, fake)).toMatchObject({ rule });
  });

  it('answers unauthorized for a route that is not in the table', async () => {
    expect(
      (await authorize(request([`Bearer ${minted.rawToken}`], { tokenScope: undefined }), deps().fake)).outcome,
    ).toBe('unauthorized');
  });

  it('lets a database failure propagate (the handler turns it into a failure, never an allow)', async () => {
    const failing: AuthorizerDeps = { ...deps().fake, getToken: async () => Promise.reject(new Error('down')) };
    await expect(authorize(request([`Bearer ${minted.rawToken}`]), failing)).rejects.toThrow('down');
  });
});

describe('authorize with a session', () => {
  it('allows a verified session with every scope and records the profile', async () => {
    const { fake, calls } = deps();
    const decision = await authorize(
      request(['Bearer eyJ.session.jwt'], { tokenScope: createTokenRoute.tokenScope }),
      fake,
    );
    expect(decision).toEqual({
      outcome: 'allow',
      principal: {
        kind: 'session',
        userId: 's-1',
        issuedAt: identity.issuedAt,
        scopes: ['read:secrets', 'write:secrets', 'admin'],
        email: identity.email,
      },
    });
    expect(calls.admitSession).toBe(1);
    expect(calls.getToken).toBe(0);
  });

  it('refuses, as unauthorized, a verified session its user’s offboarding stopped', async () => {
    const { fake, calls } = deps(stored, undefined, false);
    const decision = await authorize(request(['Bearer eyJ.session.jwt']), fake);
    expect(decision).toEqual({ outcome: 'unauthorized', rule: 'session-offboarded' });
    expect(calls.admitSession).toBe(1);
  });

  it('refuses a session whose subject has a service account’s id’s form, which would stand as it', async () => {
    const { fake, calls } = deps(stored, async () => ({ ...identity, userId: 'sa_AAAAAAAAAAAAAAAA' }));
    const decision = await authorize(request(['Bearer eyJ.session.jwt']), fake);
    expect(decision).toEqual({ outcome: 'unauthorized', rule: 'session-subject-reserved' });
    expect(calls.admitSession).toBe(0);
  });

  it('does not bind sessions to an address', async () => {
    const decision = await authorize(request(['Bearer eyJ.session.jwt'], { sourceIp: '198.51.100.1' }), deps().fake);
    expect(decision.outcome).toBe('allow');
  });

  it('maps an expired session to expired and an invalid one to unauthorized', async () => {
    const expired = deps(stored, () => Promise.reject(new SessionExpiredError('expired'))).fake;
    expect((await authorize(request(['Bearer eyJ.a.b']), expired)).outcome).toBe('expired');
    const invalid = deps(stored, () => Promise.reject(new SessionInvalidError('invalid'))).fake;
    expect((await authorize(request(['Bearer eyJ.a.b']), invalid)).outcome).toBe('unauthorized');
  });

  it('propagates an unavailable key set', async () => {
    const down = deps(stored, () => Promise.reject(new Error('keys unavailable'))).fake;
    await expect(authorize(request(['Bearer eyJ.a.b']), down)).rejects.toThrow('keys unavailable');
  });
});

describe('authorize a token limited to projects', () => {
  const limited = storedToken(minted, {
    scopes: ['admin'],
    projects: [{ projectId: 'prj_A' }, { projectId: 'prj_B', environments: ['staging', 'qa-1'] }],
  });
  const ENVIRONMENT_ROUTE = '/api/v1/projects/{projectId}/environments/{environment}';
  const judge = (overrides: Partial<Parameters<typeof authorize>[0]>, token: TokenRecord = limited) =>
    authorize(request([`Bearer ${minted.rawToken}`], overrides), deps(token).fake);
  const refused = {
    outcome: 'forbidden',
    rule: 'token-resource',
    error: ErrorText.tokenResource,
    denied: { tokenId: minted.tokenId, userId: 'user-1', ownerEmail: null, reason: 'resource' },
  };

  it('allows a route of a listed project, its own and beneath it', async () => {
    expect((await judge({})).outcome).toBe('allow');
    const project = await judge({ resource: '/api/v1/projects/{projectId}', pathParameters: { projectId: 'prj_A' } });
    expect(project.outcome).toBe('allow');
  });

  it('forbids a route of a project it does not list', async () => {
    expect(await judge({ pathParameters: { projectId: 'prj_C' } })).toEqual(refused);
  });

  it('forbids every route outside a project', async () => {
    for (const resource of ['/api/v1/tokens', '/api/v1/projects', '/api/v1/audit-events', '/api/v1/me']) {
      expect(await judge({ resource, pathParameters: null })).toEqual(refused);
    }
  });

  it('forbids a project’s route that arrives without path parameters, as API Gateway’s type allows', async () => {
    expect(await judge({ pathParameters: null })).toEqual(refused);
  });

  it('forbids a resource that only starts like a project route', async () => {
    const decision = await judge({ resource: '/api/v1/projects/{projectId}x', pathParameters: { projectId: 'prj_A' } });
    expect(decision).toEqual(refused);
  });

  it('acts with the token’s limits, and reads no service account for a person’s token', async () => {
    const { fake, calls } = deps(limited);
    const decision = await authorize(request([`Bearer ${minted.rawToken}`]), fake);
    expect(decision).toMatchObject({ outcome: 'allow', principal: { projects: limited.projects } });
    expect(calls.getServiceAccount).toBe(0);
  });

  it('allows every environment of a project listed without environments', async () => {
    const decision = await judge({
      resource: `${ENVIRONMENT_ROUTE}/secrets`,
      pathParameters: { projectId: 'prj_A', environment: 'production' },
    });
    expect(decision.outcome).toBe('allow');
  });

  it('allows beneath a listed environment and forbids another', async () => {
    for (const resource of [`${ENVIRONMENT_ROUTE}/secrets`, `${ENVIRONMENT_ROUTE}/secrets/{name}/versions`]) {
      const listed = await judge({ resource, pathParameters: { projectId: 'prj_B', environment: 'qa-1' } });
      expect([resource, listed.outcome]).toEqual([resource, 'allow']);
      const other = await judge({ resource, pathParameters: { projectId: 'prj_B', environment: 'production' } });
      expect([resource, other]).toEqual([resource, refused]);
    }
  });

  it('forbids the project’s own routes, and a listed environment itself, when it lists environments', async () => {
    for (const resource of [
      '/api/v1/projects/{projectId}',
      '/api/v1/projects/{projectId}/environments',
      '/api/v1/projects/{projectId}/members',
      '/api/v1/projects/{projectId}/members/{email}',
      '/api/v1/projects/{projectId}/audit-events',
      ENVIRONMENT_ROUTE,
      `${ENVIRONMENT_ROUTE}x/secrets`,
    ]) {
      const decision = await judge({ resource, pathParameters: { projectId: 'prj_B', environment: 'qa-1' } });
      expect([resource, decision]).toEqual([resource, refused]);
    }
  });

  it('compares the path parameters percent-decoded, and refuses one that does not decode', async () => {
    const encoded = await judge({ pathParameters: { projectId: 'prj%5FA' } });
    expect(encoded.outcome).toBe('allow');
    const broken = await judge({
      resource: `${ENVIRONMENT_ROUTE}/secrets`,
      pathParameters: { projectId: 'prj_B', environment: 'qa%E0%A4%A' },
    });
    expect(broken).toEqual(refused);
  });

  it('refuses a route beneath an environment without its environment parameter, even for an environment named undefined', async () => {
    const token = storedToken(minted, {
      scopes: ['admin'],
      projects: [{ projectId: 'prj_B', environments: ['undefined'] }],
    });
    const decision = await judge(
      { resource: `${ENVIRONMENT_ROUTE}/secrets`, pathParameters: { projectId: 'prj_B' } },
      token,
    );
    expect(decision).toEqual(refused);
  });

  it('checks the scope first: a limited token outside its projects without the scope gets the scope error', async () => {
    const reader = { ...limited, scopes: ['read:secrets' as const] };
    const decision = await judge({ tokenScope: 'admin', pathParameters: { projectId: 'prj_C' } }, reader);
    expect(decision).toMatchObject({ error: ErrorText.scope, denied: { reason: 'scope' } });
  });

  it('checks the address before the projects', async () => {
    const decision = await judge({ sourceIp: '198.51.100.1', pathParameters: { projectId: 'prj_C' } });
    expect(decision).toMatchObject({ error: ErrorText.wrongIp });
  });

  it('never limits a token without projects, nor a session', async () => {
    const free = await judge({ resource: '/api/v1/tokens', pathParameters: null }, stored);
    expect(free.outcome).toBe('allow');
    const session = await authorize(
      request(['Bearer a.b.c'], { resource: '/api/v1/tokens', pathParameters: null }),
      deps().fake,
    );
    expect(session.outcome).toBe('allow');
  });
});

describe('authorize with a service account’s token', () => {
  const serviceAccount: ServiceAccountRecord = {
    projectId: 'prj_A',
    serviceAccountId: 'sa_AAAAAAAAAAAAAAAA',
    name: 'deploy',
    description: null,
    access: { production: { level: 'read', life: 'L1' } },
    createdAt: '2026-11-01T00:00:00.000Z',
    createdBy: { userId: 'user-1', email: null },
  };
  const machineToken = storedToken(minted, {
    userId: serviceAccount.serviceAccountId,
    scopes: [],
    expiresAt: '2026-12-01T00:00:00.000Z',
    serviceAccountProject: 'prj_A',
  });
  const machineDeps = (found: ServiceAccountRecord | null = serviceAccount) => ({
    ...deps(machineToken).fake,
    getServiceAccount: async (projectId: string, id: string) =>
      projectId === found?.projectId && id === found.serviceAccountId ? found : undefined,
  });
  const secretsRoute = {
    tokenScope: getSecretRoute.tokenScope,
    serviceAccounts: getSecretRoute.serviceAccounts,
    resource: getSecretRoute.path,
    pathParameters: { projectId: 'prj_A', environment: 'production', name: 'KEY' },
  };

  it('allows a route a service account may call, as the service account, with the scopes its access gives', async () => {
    const decision = await authorize(request([`Bearer ${minted.rawToken}`], secretsRoute), machineDeps());
    expect(decision).toEqual({
      outcome: 'allow',
      principal: {
        kind: 'serviceAccount',
        userId: serviceAccount.serviceAccountId,
        tokenId: minted.tokenId,
        scopes: ['read:secrets'],
        name: 'deploy',
        projects: [{ projectId: 'prj_A' }],
      },
      tokenLastUsedAt: null,
    });
  });

  it.each([
    ['a route no service account may call', { serviceAccounts: undefined }, ErrorText.serviceAccountForbidden],
    ['a route for sessions only', { tokenScope: null, serviceAccounts: undefined }, ErrorText.serviceAccountForbidden],
    [
      'another project',
      { pathParameters: { ...secretsRoute.pathParameters, projectId: 'prj_B' } },
      ErrorText.tokenResource,
    ],
    ['a write with read access only', { tokenScope: 'write:secrets' as const }, ErrorText.scope],
  ])('refuses %s', async (_label, overrides, error) => {
    const decision = await authorize(
      request([`Bearer ${minted.rawToken}`], { ...secretsRoute, ...overrides }),
      machineDeps(),
    );
    expect(decision).toMatchObject({ outcome: 'forbidden', error });
  });

  it('writes where its access writes', async () => {
    const writer = { ...serviceAccount, access: { production: { level: 'write' as const, life: 'L1' } } };
    const decision = await authorize(
      request([`Bearer ${minted.rawToken}`], { ...secretsRoute, tokenScope: 'write:secrets' }),
      machineDeps(writer),
    );
    expect(decision).toMatchObject({ outcome: 'allow', principal: { scopes: ['read:secrets', 'write:secrets'] } });
  });

  it('says which rule refused it and why, naming the service account in the denial', async () => {
    const denied = (reason: string) => ({
      tokenId: minted.tokenId,
      userId: serviceAccount.serviceAccountId,
      ownerEmail: null,
      reason,
      serviceAccount: { projectId: 'prj_A', name: 'deploy' },
    });
    const judge = (overrides: Partial<Parameters<typeof authorize>[0]>) =>
      authorize(request([`Bearer ${minted.rawToken}`], { ...secretsRoute, ...overrides }), machineDeps());

    expect(await judge({ serviceAccounts: undefined })).toEqual({
      outcome: 'forbidden',
      rule: 'service-account-route',
      error: ErrorText.serviceAccountForbidden,
      denied: denied('route'),
    });
    expect(await judge({ tokenScope: 'write:secrets' })).toEqual({
      outcome: 'forbidden',
      rule: 'token-scope',
      error: ErrorText.scope,
      denied: denied('scope'),
    });
    expect(await judge({ pathParameters: { ...secretsRoute.pathParameters, projectId: 'prj_B' } })).toEqual({
      outcome: 'forbidden',
      rule: 'token-resource',
      error: ErrorText.tokenResource,
      denied: denied('resource'),
    });
    expect(await judge({ sourceIp: '198.51.100.1' })).toEqual({
      outcome: 'forbidden',
      rule: 'token-ip',
      error: ErrorText.wrongIp,
      denied: denied('ip'),
    });
  });

  it('refuses a route for sessions only even if it were marked for service accounts', async () => {
    const decision = await authorize(
      request([`Bearer ${minted.rawToken}`], { ...secretsRoute, tokenScope: null, serviceAccounts: true }),
      machineDeps(),
    );
    expect(decision).toMatchObject({ outcome: 'forbidden', rule: 'service-account-route' });
  });

  it('acts as the workload a signed-in token was given to', async () => {
    const signedIn = storedToken(minted, { ...machineToken, subject: 'https://issuer.example#repo:acme' });
    const decision = await authorize(request([`Bearer ${minted.rawToken}`], secretsRoute), {
      ...machineDeps(),
      getToken: async () => signedIn,
    });
    expect(decision).toMatchObject({
      outcome: 'allow',
      principal: { kind: 'serviceAccount', subject: 'https://issuer.example#repo:acme' },
    });
  });

  it('refuses every token of a deleted service account as unknown', async () => {
    const decision = await authorize(request([`Bearer ${minted.rawToken}`], secretsRoute), machineDeps(null));
    expect(decision).toEqual({ outcome: 'unauthorized', rule: 'service-account-deleted' });
  });
});
