import { ErrorText } from '@contract/errors';
import { MAX_SERVICE_ACCOUNT_TOKENS } from '@contract/limits';
import type { CognitoCallEvent } from '@lambdas/events/offboard-user';
import type { LocalService } from '../../local/service';
import { call, cognitoEvent, createProject, createToken, type Reply, signedIn, startService } from './harness';

/**
 * A service account's static tokens through the local gateway against DynamoDB Local: who may make,
 * list, rotate and revoke them; what one reaches (its project, the environments of its access, the
 * routes a pipeline needs and nothing of the project's administration); that it outlives its maker and
 * stops with its service account; and how the audit trail names it.
 */

let service: LocalService;
let offboardUserHandler: (event: CognitoCallEvent) => Promise<void>;
beforeAll(async () => {
  service = await startService();
  ({ offboardUserHandler } = await import('@lambdas/events/offboard-user'));
});
afterAll(async () => {
  await service.close();
});

const refusal = (reply: Reply) => [reply.status, reply.body.error];

const secretPath = (projectId: string, environment: string, name: string) =>
  `/api/v1/projects/${projectId}/environments/${environment}/secrets/${name}`;

/**
 * An owner's project with an admin and a plain member, a secret in staging and in production, and a
 * service account (made by the admin) that reads production and writes staging.
 */
const world = async () => {
  const owner = await signedIn(service, 'owner');
  const admin = await signedIn(service, 'admin');
  const member = await signedIn(service, 'member');
  const projectId = await createProject(service, owner.session);
  for (const [who, role] of [
    [admin, 'admin'],
    [member, 'member'],
  ] as const) {
    const added = await call(service, 'POST', `/api/v1/projects/${projectId}/members`, {
      token: owner.session,
      json: { email: who.email, role },
    });
    expect(added.status).toBe(200);
  }
  for (const environment of ['staging', 'production', 'development']) {
    const put = await call(service, 'PUT', secretPath(projectId, environment, 'API_KEY'), {
      token: owner.session,
      json: { value: `${environment}-value` },
    });
    expect(put.status).toBe(201);
  }
  const made = await call(service, 'POST', `/api/v1/projects/${projectId}/service-accounts`, {
    token: admin.session,
    json: { name: 'deploy', access: { production: 'read', staging: 'write' } },
  });
  expect(made.status).toBe(201);
  const serviceAccountId = made.body.data.id as string;
  const tokens = `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}/tokens`;
  return { owner, admin, member, projectId, serviceAccountId, tokens };
};

/** A new token of the service account's, made by `session`. */
const machineToken = async (tokens: string, session: string, json: unknown = { name: 'ci', ttlDays: 30 }) => {
  const reply = await call(service, 'POST', tokens, { token: session, json });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string; rawToken: string; expiresAt: string; scopes: string[] };
};

describe('POST …/service-accounts/:serviceAccountId/tokens', () => {
  it('shows a new token once, with the scopes its access gives and the expiry its ttlDays sets', async () => {
    const { admin, tokens } = await world();
    const before = Date.now();
    const reply = await call(service, 'POST', tokens, {
      token: admin.session,
      json: { name: 'github-actions', ttlDays: 90 },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toEqual({
      id: expect.any(String),
      name: 'github-actions',
      rawToken: expect.stringMatching(/^svc_live_/),
      displayPrefix: expect.any(String),
      scopes: ['read:secrets', 'write:secrets'],
      expiresAt: expect.any(String),
      allowedIps: null,
    });
    const lives = Date.parse(reply.body.data.expiresAt) - before;
    expect(Math.round(lives / 86_400_000)).toBe(90);
    const listed = await call(service, 'GET', tokens, { token: admin.session });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(reply.body.data.rawToken);
  });

  it.each([
    ['no ttlDays', { name: 'ci' }],
    ['ttlDays of 0', { name: 'ci', ttlDays: 0 }],
    ['ttlDays past a year', { name: 'ci', ttlDays: 366 }],
    ['a token that never expires', { name: 'ci', ttlDays: null }],
    ['scopes of its own', { name: 'ci', ttlDays: 30, scopes: ['admin'] }],
  ])('refuses %s with 400', async (_label, json) => {
    const { owner, tokens } = await world();
    const reply = await call(service, 'POST', tokens, { token: owner.session, json });
    expect(refusal(reply)).toEqual([400, ErrorText.validation]);
  });

  it('refuses a plain member (403), a stranger (404), an API token (403) and an unknown service account (404)', async () => {
    const { owner, member, projectId, tokens } = await world();
    const stranger = await signedIn(service, 'stranger');
    const json = { name: 'ci', ttlDays: 30 };
    expect(refusal(await call(service, 'POST', tokens, { token: member.session, json }))).toEqual([
      403,
      ErrorText.projectRole,
    ]);
    expect(refusal(await call(service, 'POST', tokens, { token: stranger.session, json }))).toEqual([
      404,
      ErrorText.projectNotFound,
    ]);
    const adminToken = (await createToken(service, owner.session)).rawToken;
    expect(refusal(await call(service, 'POST', tokens, { token: adminToken, json }))).toEqual([
      403,
      ErrorText.sessionRequired,
    ]);
    const unknown = `/api/v1/projects/${projectId}/service-accounts/sa_ZZZZZZZZZZZZZZZZ/tokens`;
    expect(refusal(await call(service, 'POST', unknown, { token: owner.session, json }))).toEqual([
      404,
      ErrorText.serviceAccountNotFound,
    ]);
  });

  it(`holds a service account to ${MAX_SERVICE_ACCOUNT_TOKENS} live tokens, however many creates race`, async () => {
    const { owner, tokens } = await world();
    const replies = await Promise.all(
      Array.from({ length: MAX_SERVICE_ACCOUNT_TOKENS + 4 }, (_unused, index) =>
        call(service, 'POST', tokens, { token: owner.session, json: { name: `ci-${index}`, ttlDays: 1 } }),
      ),
    );
    const statuses = replies.map((reply) => reply.status).filter((status) => status !== 503);
    expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(MAX_SERVICE_ACCOUNT_TOKENS);
    for (;;) {
      const listed = await call(service, 'GET', tokens, { token: owner.session });
      if (listed.body.data.length >= MAX_SERVICE_ACCOUNT_TOKENS) break;
      const more = await call(service, 'POST', tokens, { token: owner.session, json: { name: 'more', ttlDays: 1 } });
      if (more.status === 409) break;
    }
    const over = await call(service, 'POST', tokens, { token: owner.session, json: { name: 'over', ttlDays: 1 } });
    expect(refusal(over)).toEqual([409, ErrorText.tokenLimit]);
  });
});

describe('what a service account’s token reaches', () => {
  it('reads the environments of its access and writes where it writes, nothing more', async () => {
    const { admin, projectId, tokens } = await world();
    const { rawToken } = await machineToken(tokens, admin.session);
    const read = await call(service, 'GET', secretPath(projectId, 'production', 'API_KEY'), { token: rawToken });
    expect(read.status).toBe(200);
    expect(read.body.data.value).toBe('production-value');
    const exported = await call(service, 'GET', `/api/v1/projects/${projectId}/environments/staging/export`, {
      token: rawToken,
    });
    expect(exported.status).toBe(200);
    const written = await call(service, 'PUT', secretPath(projectId, 'staging', 'API_KEY'), {
      token: rawToken,
      json: { value: 'from-ci' },
    });
    expect(written.status).toBe(200);
    expect(
      refusal(
        await call(service, 'PUT', secretPath(projectId, 'production', 'API_KEY'), {
          token: rawToken,
          json: { value: 'from-ci' },
        }),
      ),
    ).toEqual([403, ErrorText.environmentAccess]);
    // An environment left out of its access is none of its, whatever the environment's default.
    expect(
      refusal(await call(service, 'GET', secretPath(projectId, 'development', 'API_KEY'), { token: rawToken })),
    ).toEqual([403, ErrorText.environmentAccess]);
  });

  it('is refused every route of the project’s administration, its members, tokens, shares and /me', async () => {
    const { owner, admin, projectId, tokens, serviceAccountId } = await world();
    const { rawToken } = await machineToken(tokens, admin.session);
    const refusedRoutes: [string, string, unknown?][] = [
      ['GET', `/api/v1/projects/${projectId}/members`],
      ['GET', `/api/v1/projects/${projectId}/audit-events`],
      ['GET', `/api/v1/projects/${projectId}/service-accounts`],
      ['GET', `${tokens}`],
      ['DELETE', `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}`],
      ['GET', '/api/v1/me'],
      ['GET', '/api/v1/projects'],
      ['GET', '/api/v1/tokens'],
      ['GET', '/api/v1/shares'],
      ['POST', '/api/v1/tokens', { name: 'escape', scopes: ['admin'] }],
    ];
    for (const [method, path, json] of refusedRoutes) {
      const reply = await call(service, method, path, { token: rawToken, json });
      expect([method, path, ...refusal(reply)]).toEqual([method, path, 403, ErrorText.serviceAccountForbidden]);
    }
    const other = await createProject(service, owner.session);
    expect(
      refusal(await call(service, 'GET', secretPath(other, 'production', 'API_KEY'), { token: rawToken })),
    ).toEqual([403, ErrorText.tokenResource]);
  });

  it('may propose a change request, and never approve one', async () => {
    const { owner, admin, projectId, tokens } = await world();
    const protect = await call(service, 'PATCH', `/api/v1/projects/${projectId}/environments/staging`, {
      token: owner.session,
      json: { protected: true },
    });
    expect(protect.status).toBe(200);
    const { rawToken } = await machineToken(tokens, admin.session);
    const requests = `/api/v1/projects/${projectId}/environments/staging/change-requests`;
    const proposed = await call(service, 'POST', requests, { token: rawToken, json: { set: { API_KEY: 'next' } } });
    expect(proposed.status).toBe(201);
    const approve = await call(service, 'POST', `${requests}/${proposed.body.data.id}/approve`, { token: rawToken });
    expect(refusal(approve)).toEqual([403, ErrorText.serviceAccountForbidden]);
  });
});

describe('a service account’s token belongs to the service account', () => {
  it('works on after the admin who made it is offboarded', async () => {
    const { admin, projectId, tokens } = await world();
    const { rawToken } = await machineToken(tokens, admin.session);
    await offboardUserHandler(cognitoEvent('AdminDisableUser', admin.userId));
    const read = await call(service, 'GET', secretPath(projectId, 'production', 'API_KEY'), { token: rawToken });
    expect(read.status).toBe(200);
  });

  it('stops, with every other token of it, when the service account is deleted', async () => {
    const { owner, projectId, tokens, serviceAccountId } = await world();
    const first = await machineToken(tokens, owner.session);
    const second = await machineToken(tokens, owner.session, { name: 'other', ttlDays: 5 });
    const deleted = await call(
      service,
      'DELETE',
      `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}`,
      {
        token: owner.session,
      },
    );
    expect(deleted.status).toBe(200);
    for (const { rawToken } of [first, second]) {
      const read = await call(service, 'GET', secretPath(projectId, 'production', 'API_KEY'), { token: rawToken });
      expect(refusal(read)).toEqual([401, ErrorText.unauthorized]);
    }
  });

  it('follows a change of its access at once', async () => {
    const { owner, projectId, tokens, serviceAccountId } = await world();
    const { rawToken } = await machineToken(tokens, owner.session);
    const changed = await call(service, 'PATCH', `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}`, {
      token: owner.session,
      json: { access: { staging: 'read' } },
    });
    expect(changed.status).toBe(200);
    expect(
      refusal(await call(service, 'GET', secretPath(projectId, 'production', 'API_KEY'), { token: rawToken })),
    ).toEqual([403, ErrorText.environmentAccess]);
    expect(
      refusal(
        await call(service, 'PUT', secretPath(projectId, 'staging', 'API_KEY'), {
          token: rawToken,
          json: { value: 'x' },
        }),
      ),
    ).toEqual([403, ErrorText.scope]);
  });
});

describe('revoking and rotating a service account’s token', () => {
  it('revokes one for an owner or admin: its next use is a 401, and it is gone from the list', async () => {
    const { owner, member, projectId, tokens } = await world();
    const made = await machineToken(tokens, owner.session);
    expect(refusal(await call(service, 'DELETE', `${tokens}/${made.id}`, { token: member.session }))).toEqual([
      403,
      ErrorText.projectRole,
    ]);
    const revoked = await call(service, 'DELETE', `${tokens}/${made.id}`, { token: owner.session });
    expect(revoked.status).toBe(200);
    expect(refusal(await call(service, 'DELETE', `${tokens}/${made.id}`, { token: owner.session }))).toEqual([
      404,
      ErrorText.tokenNotFound,
    ]);
    const read = await call(service, 'GET', secretPath(projectId, 'production', 'API_KEY'), { token: made.rawToken });
    expect(refusal(read)).toEqual([401, ErrorText.unauthorized]);
  });

  it('answers 404 for a person’s token id on a service account’s path', async () => {
    const { owner, tokens } = await world();
    const personal = await createToken(service, owner.session);
    expect(refusal(await call(service, 'DELETE', `${tokens}/${personal.id}`, { token: owner.session }))).toEqual([
      404,
      ErrorText.tokenNotFound,
    ]);
  });

  it('rotates one: the new one works, the old one works on for its grace period and then stops', async () => {
    const { owner, projectId, tokens } = await world();
    const old = await machineToken(tokens, owner.session);
    const rotated = await call(service, 'POST', `${tokens}/${old.id}/rotate`, {
      token: owner.session,
      json: { graceHours: 0 },
    });
    expect(rotated.status).toBe(201);
    expect(rotated.body.data.replaces.id).toBe(old.id);
    const path = secretPath(projectId, 'production', 'API_KEY');
    expect((await call(service, 'GET', path, { token: rotated.body.data.rawToken })).status).toBe(200);
    expect(refusal(await call(service, 'GET', path, { token: old.rawToken }))).toEqual([401, ErrorText.unauthorized]);
    expect(refusal(await call(service, 'POST', `${tokens}/${old.id}/rotate`, { token: owner.session }))).toEqual([
      409,
      ErrorText.tokenRotated,
    ]);
  });
});

describe('the audit trail of a service account’s tokens', () => {
  it('names the service account as the actor of what its token does, and records the token’s life and refusals', async () => {
    const { owner, admin, projectId, tokens, serviceAccountId } = await world();
    const made = await machineToken(tokens, admin.session);
    expect(
      (await call(service, 'GET', secretPath(projectId, 'production', 'API_KEY'), { token: made.rawToken })).status,
    ).toBe(200);
    expect((await call(service, 'GET', `/api/v1/projects/${projectId}/members`, { token: made.rawToken })).status).toBe(
      403,
    );
    expect((await call(service, 'DELETE', `${tokens}/${made.id}`, { token: owner.session })).status).toBe(200);
    const trail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events`, { token: owner.session });
    expect(trail.status).toBe(200);
    const byType = (type: string) => trail.body.data.filter((event: { type: string }) => event.type === type);
    const machine = {
      type: 'serviceAccount',
      id: serviceAccountId,
      name: 'deploy',
      userId: null,
      email: null,
      via: 'token',
      tokenId: made.id,
      subject: null,
    };
    expect(byType('secret.read')).toContainEqual(expect.objectContaining({ actor: machine }));
    expect(byType('service_account.denied')).toEqual([
      expect.objectContaining({
        actor: machine,
        target: expect.objectContaining({ serviceAccountId, tokenId: made.id, projectId }),
        details: expect.objectContaining({ reason: 'route' }),
      }),
    ]);
    expect(byType('service_account.token.created')).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'user', id: admin.userId, via: 'session' }),
        target: expect.objectContaining({ serviceAccountId, tokenId: made.id }),
        details: expect.objectContaining({ name: 'ci', expiresAt: made.expiresAt }),
      }),
    ]);
    expect(byType('service_account.token.revoked')).toEqual([
      expect.objectContaining({ target: expect.objectContaining({ serviceAccountId, tokenId: made.id }) }),
    ]);
    expect(JSON.stringify(trail.body)).not.toContain(made.rawToken);
  });
});
