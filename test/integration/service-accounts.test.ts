import { ErrorText } from '@contract/errors';
import { MAX_SERVICE_ACCOUNTS } from '@contract/limits';
import type { CognitoCallEvent } from '@lambdas/events/offboard-user';
import type { LocalService } from '../../local/service';
import { call, cognitoEvent, createProject, createToken, type Reply, signedIn, startService } from './harness';

/**
 * A project's service accounts through the local gateway against DynamoDB Local: who may create, read,
 * change and delete them, their limit under racing creates, that they belong to the project (not to
 * their maker), their access to environments that go away, and their audit events.
 */

let service: LocalService;
let offboardUserHandler: (event: CognitoCallEvent) => Promise<void>;
beforeAll(async () => {
  service = await startService();
  // The handler reads the table's name when loaded, after the service has set it.
  ({ offboardUserHandler } = await import('@lambdas/events/offboard-user'));
});
afterAll(async () => {
  await service.close();
});

const accounts = (projectId: string) => `/api/v1/projects/${projectId}/service-accounts`;
const account = (projectId: string, id: string) => `${accounts(projectId)}/${id}`;

/** An owner's new project, with an admin and a plain member in it, and a stranger who belongs to none. */
const projectWithTeam = async () => {
  const owner = await signedIn(service, 'owner');
  const admin = await signedIn(service, 'admin');
  const member = await signedIn(service, 'member');
  const stranger = await signedIn(service, 'stranger');
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
  return { owner, admin, member, stranger, projectId };
};

const create = (projectId: string, session: string, json: unknown) =>
  call(service, 'POST', accounts(projectId), { token: session, json });

/** The status and error of a refusal. */
const refusal = (reply: Reply) => [reply.status, reply.body.error];

/** A service account created by `session`, as the create answered it. */
const created = async (projectId: string, session: string, json: unknown = { name: 'ci', access: {} }) => {
  const reply = await create(projectId, session, json);
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string; name: string; access: Record<string, string> };
};

describe('POST /api/v1/projects/:projectId/service-accounts', () => {
  it('creates one for an owner or admin, answering 201 with the service account', async () => {
    const { owner, admin, projectId } = await projectWithTeam();
    const reply = await create(projectId, admin.session, {
      name: '  deploy-bot ',
      description: 'Deploys from CI',
      access: { staging: 'read', production: 'write' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^sa_[0-9A-Za-z]{16}$/),
        name: 'deploy-bot',
        description: 'Deploys from CI',
        access: { staging: 'read', production: 'write' },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        createdBy: { userId: admin.userId, email: admin.email },
      },
    });
    const byOwner = await create(projectId, owner.session, { name: 'reader', access: {} });
    expect([byOwner.status, byOwner.body.data.description, byOwner.body.data.access]).toEqual([201, null, {}]);
  });

  it('refuses a plain member with 403 and a non-member with 404, creating nothing', async () => {
    const { owner, member, stranger, projectId } = await projectWithTeam();
    expect(refusal(await create(projectId, member.session, { name: 'x', access: {} }))).toEqual([
      403,
      ErrorText.projectRole,
    ]);
    expect(refusal(await create(projectId, stranger.session, { name: 'x', access: {} }))).toEqual([
      404,
      ErrorText.projectNotFound,
    ]);
    expect((await call(service, 'GET', accounts(projectId), { token: owner.session })).body.data).toEqual([]);
  });

  it('answers 404 Environment not found for access to an environment the project does not have', async () => {
    const { owner, projectId } = await projectWithTeam();
    const reply = await create(projectId, owner.session, { name: 'x', access: { staging: 'read', qa: 'read' } });
    expect(refusal(reply)).toEqual([404, ErrorText.environmentNotFound]);
    expect((await call(service, 'GET', accounts(projectId), { token: owner.session })).body.data).toEqual([]);
  });

  it.each([
    ['a name with a hidden character', { name: 'ci\u200Bbot', access: {} }, 'name'],
    ['an empty name', { name: '   ', access: {} }, 'name'],
    ['a name of 101 characters', { name: 'n'.repeat(101), access: {} }, 'name'],
    ['no access', { name: 'ci' }, 'access'],
    ['the level none', { name: 'ci', access: { staging: 'none' } }, 'access.staging'],
    ['a description of 501 characters', { name: 'ci', description: 'd'.repeat(501), access: {} }, 'description'],
    ['an unknown field', { name: 'ci', access: {}, scopes: ['admin'] }, ''],
  ])('refuses %s with 400 Validation failed naming the field', async (_case, body, path) => {
    const { owner, projectId } = await projectWithTeam();
    const reply = await create(projectId, owner.session, body);
    expect(refusal(reply)).toEqual([400, ErrorText.validation]);
    expect(reply.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
  });

  it(`holds a project to ${MAX_SERVICE_ACCOUNTS} service accounts, however many creates race`, async () => {
    const { owner, projectId } = await projectWithTeam();
    const add = (index: number) => create(projectId, owner.session, { name: `bot-${index}`, access: {} });
    const attempts = Array.from({ length: MAX_SERVICE_ACCOUNTS + 10 }, (_, index) => index);
    let replies = await Promise.all(attempts.map(add));
    // A write that lost every retry to the others answers 503: it is sent again, as a client would.
    for (let round = 0; round < 5 && replies.some((reply) => reply.status === 503); round += 1) {
      replies = await Promise.all(
        replies.map(async (reply, index) => (reply.status === 503 ? add(attempts[index] ?? 0) : reply)),
      );
    }
    const createdIds = replies.filter((reply) => reply.status === 201).map((reply) => reply.body.data.id);
    const refused = replies.filter((reply) => reply.status !== 201).map(refusal);
    expect(createdIds.length).toBeLessThanOrEqual(MAX_SERVICE_ACCOUNTS);
    expect(refused).toEqual(refused.map(() => [409, ErrorText.serviceAccountLimit]));
    const listed = (await call(service, 'GET', accounts(projectId), { token: owner.session })).body.data;
    expect(listed).toHaveLength(MAX_SERVICE_ACCOUNTS);
    expect(listed.map((entry: { id: string }) => entry.id)).toEqual(expect.arrayContaining(createdIds));
    expect(refusal(await add(999))).toEqual([409, ErrorText.serviceAccountLimit]);
    // Deleting one makes room for exactly one.
    const deleted = await call(service, 'DELETE', account(projectId, listed[0].id), { token: owner.session });
    expect(deleted.status).toBe(200);
    expect((await add(1000)).status).toBe(201);
    expect(refusal(await add(1001))).toEqual([409, ErrorText.serviceAccountLimit]);
  });
});

describe('GET /api/v1/projects/:projectId/service-accounts and /:serviceAccountId', () => {
  it('lists them by name to every member and reads one, and answers a non-member 404', async () => {
    const { owner, member, stranger, projectId } = await projectWithTeam();
    const zeta = await created(projectId, owner.session, { name: 'zeta', access: { development: 'write' } });
    const alpha = await created(projectId, owner.session, { name: 'alpha', access: {} });
    for (const who of [owner, member]) {
      const listed = await call(service, 'GET', accounts(projectId), { token: who.session });
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([alpha, zeta]);
      const one = await call(service, 'GET', account(projectId, zeta.id), { token: who.session });
      expect([one.status, one.body.data]).toEqual([200, zeta]);
    }
    expect(refusal(await call(service, 'GET', accounts(projectId), { token: stranger.session }))).toEqual([
      404,
      ErrorText.projectNotFound,
    ]);
    expect(refusal(await call(service, 'GET', account(projectId, zeta.id), { token: stranger.session }))).toEqual([
      404,
      ErrorText.projectNotFound,
    ]);
  });

  it('answers 404 Service account not found for an unknown, malformed or other project’s id', async () => {
    const { owner, projectId } = await projectWithTeam();
    const otherProject = await createProject(service, owner.session, 'Other');
    const elsewhere = await created(otherProject, owner.session);
    for (const id of ['sa_AAAAAAAAAAAAAAAA', 'sa_short', 'nope', elsewhere.id]) {
      expect(refusal(await call(service, 'GET', account(projectId, id), { token: owner.session }))).toEqual([
        404,
        ErrorText.serviceAccountNotFound,
      ]);
    }
  });

  it('lets a read:secrets token list them, and refuses a token limited to environments (403)', async () => {
    const { owner, projectId } = await projectWithTeam();
    const bot = await created(projectId, owner.session);
    const reader = await createToken(service, owner.session, { name: 'reader', scopes: ['read:secrets'] });
    const listed = await call(service, 'GET', accounts(projectId), { token: reader.rawToken });
    expect([listed.status, listed.body.data]).toEqual([200, [bot]]);
    expect(refusal(await create(projectId, reader.rawToken, { name: 'x', access: {} }))).toEqual([
      403,
      ErrorText.scope,
    ]);
    const limited = await createToken(service, owner.session, {
      name: 'staging only',
      scopes: ['admin'],
      projects: [{ projectId, environments: ['staging'] }],
    });
    for (const [method, path, json] of [
      ['GET', accounts(projectId), undefined],
      ['POST', accounts(projectId), { name: 'x', access: { staging: 'write' } }],
      ['GET', account(projectId, bot.id), undefined],
      ['PATCH', account(projectId, bot.id), { access: { staging: 'write' } }],
      ['DELETE', account(projectId, bot.id), undefined],
    ] as const) {
      const reply = await call(service, method, path, { token: limited.rawToken, json });
      expect([method, ...refusal(reply)]).toEqual([method, 403, ErrorText.tokenResource]);
    }
    // The whole project, without environments, reaches them.
    const wholeProject = await createToken(service, owner.session, {
      name: 'project',
      scopes: ['admin'],
      projects: [{ projectId }],
    });
    expect((await create(projectId, wholeProject.rawToken, { name: 'y', access: {} })).status).toBe(201);
  });
});

describe('PATCH /api/v1/projects/:projectId/service-accounts/:serviceAccountId', () => {
  it('changes the name, description and whole access for an owner or admin', async () => {
    const { owner, admin, projectId } = await projectWithTeam();
    const bot = await created(projectId, owner.session, {
      name: 'bot',
      description: 'first',
      access: { development: 'write', staging: 'read' },
    });
    const renamed = await call(service, 'PATCH', account(projectId, bot.id), {
      token: admin.session,
      json: { name: 'deployer', access: { production: 'read' } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toEqual({
      ...bot,
      name: 'deployer',
      description: 'first',
      access: { production: 'read' },
    });
    const cleared = await call(service, 'PATCH', account(projectId, bot.id), {
      token: owner.session,
      json: { description: null },
    });
    expect(cleared.body.data).toEqual({ ...renamed.body.data, description: null });
    const read = await call(service, 'GET', account(projectId, bot.id), { token: owner.session });
    expect(read.body.data).toEqual(cleared.body.data);
  });

  it('refuses a plain member (403), an unknown environment (404) and an empty change (400), changing nothing', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    const bot = await created(projectId, owner.session, { name: 'bot', access: { staging: 'read' } });
    const patch = (session: string, json: unknown, id = bot.id) =>
      call(service, 'PATCH', account(projectId, id), { token: session, json });
    expect(refusal(await patch(member.session, { name: 'mine' }))).toEqual([403, ErrorText.projectRole]);
    expect(refusal(await patch(owner.session, { access: { qa: 'write' } }))).toEqual([
      404,
      ErrorText.environmentNotFound,
    ]);
    expect(refusal(await patch(owner.session, {}))).toEqual([400, ErrorText.validation]);
    expect(refusal(await patch(owner.session, { name: 'x' }, 'sa_AAAAAAAAAAAAAAAA'))).toEqual([
      404,
      ErrorText.serviceAccountNotFound,
    ]);
    const read = await call(service, 'GET', account(projectId, bot.id), { token: owner.session });
    expect(read.body.data).toEqual(bot);
  });
});

describe('DELETE /api/v1/projects/:projectId/service-accounts/:serviceAccountId', () => {
  it('deletes it for an owner or admin; then it is not found, and a plain member is refused', async () => {
    const { owner, admin, member, projectId } = await projectWithTeam();
    const bot = await created(projectId, owner.session);
    const remove = (session: string) => call(service, 'DELETE', account(projectId, bot.id), { token: session });
    expect(refusal(await remove(member.session))).toEqual([403, ErrorText.projectRole]);
    const deleted = await remove(admin.session);
    expect([deleted.status, deleted.body]).toEqual([200, { success: true }]);
    expect(refusal(await remove(owner.session))).toEqual([404, ErrorText.serviceAccountNotFound]);
    expect(refusal(await call(service, 'GET', account(projectId, bot.id), { token: owner.session }))).toEqual([
      404,
      ErrorText.serviceAccountNotFound,
    ]);
    expect((await call(service, 'GET', accounts(projectId), { token: owner.session })).body.data).toEqual([]);
  });
});

describe('a service account belongs to its project', () => {
  it('stays, unchanged, when the admin who made it is removed from the project', async () => {
    const { owner, admin, projectId } = await projectWithTeam();
    const bot = await created(projectId, admin.session, { name: 'bot', access: { staging: 'write' } });
    const removed = await call(service, 'DELETE', `/api/v1/projects/${projectId}/members/${admin.email}`, {
      token: owner.session,
    });
    expect(removed.status).toBe(200);
    const listed = await call(service, 'GET', accounts(projectId), { token: owner.session });
    expect(listed.body.data).toEqual([bot]);
  });

  it('stays, unchanged, when the admin who made it is offboarded', async () => {
    const { owner, admin, projectId } = await projectWithTeam();
    const bot = await created(projectId, admin.session, { name: 'bot', access: { production: 'read' } });
    await offboardUserHandler(cognitoEvent('AdminDisableUser', admin.userId));
    const members = await call(service, 'GET', `/api/v1/projects/${projectId}/members`, { token: owner.session });
    expect(members.body.data.map((entry: { email: string }) => entry.email)).not.toContain(admin.email);
    const listed = await call(service, 'GET', accounts(projectId), { token: owner.session });
    expect(listed.body.data).toEqual([bot]);
  });
});

describe('access to an environment that is deleted', () => {
  it('is gone from the service account, and does not come back with an environment of the same name', async () => {
    const { owner, projectId } = await projectWithTeam();
    const bot = await created(projectId, owner.session, {
      name: 'bot',
      access: { staging: 'read', development: 'write' },
    });
    const environment = `/api/v1/projects/${projectId}/environments`;
    expect((await call(service, 'DELETE', `${environment}/staging`, { token: owner.session })).status).toBe(200);
    const afterDelete = await call(service, 'GET', account(projectId, bot.id), { token: owner.session });
    expect(afterDelete.body.data).toEqual({ ...bot, access: { development: 'write' } });
    const remade = await call(service, 'POST', environment, { token: owner.session, json: { name: 'staging' } });
    expect(remade.status).toBe(201);
    const listed = await call(service, 'GET', accounts(projectId), { token: owner.session });
    expect(listed.body.data).toEqual([{ ...bot, access: { development: 'write' } }]);
  });
});

describe('audit events of service accounts', () => {
  it('records service_account.created, .updated and .deleted in the project’s trail, naming it', async () => {
    const { owner, admin, projectId } = await projectWithTeam();
    const bot = await created(projectId, admin.session, { name: 'bot', access: { staging: 'read' } });
    const patched = await call(service, 'PATCH', account(projectId, bot.id), {
      token: owner.session,
      json: { name: 'deployer', access: { staging: 'write' } },
    });
    expect(patched.status).toBe(200);
    expect((await call(service, 'DELETE', account(projectId, bot.id), { token: owner.session })).status).toBe(200);
    const trail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events`, { token: owner.session });
    const events = (trail.body.data as { type: string }[]).filter((event) => event.type.startsWith('service_account.'));
    const target = { projectId, serviceAccountId: bot.id };
    expect(events).toEqual([
      expect.objectContaining({
        type: 'service_account.deleted',
        actor: expect.objectContaining({ userId: owner.userId, via: 'session' }),
        target: expect.objectContaining(target),
        details: expect.objectContaining({ name: 'deployer' }),
      }),
      expect.objectContaining({
        type: 'service_account.updated',
        target: expect.objectContaining(target),
        details: expect.objectContaining({ name: 'deployer', access: { staging: 'write' } }),
      }),
      expect.objectContaining({
        type: 'service_account.created',
        actor: expect.objectContaining({ userId: admin.userId, email: admin.email }),
        target: expect.objectContaining(target),
        details: expect.objectContaining({ name: 'bot', access: { staging: 'read' } }),
      }),
    ]);
  });
});
