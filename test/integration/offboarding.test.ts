import { ErrorText } from '@contract/errors';
import { setClock } from '@lambdas/domain/clock';
import type { CognitoCallEvent } from '@lambdas/events/offboard-user';
import { decodeJwt } from 'jose';
import type { LocalService } from '../../local/service';
import { call, cognitoEvent, createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';
import { runScript } from './npm-start';

let service: LocalService;
let offboardUserHandler: (event: CognitoCallEvent) => Promise<void>;
beforeAll(async () => {
  service = await startService();
  // The handler reads the table's name when loaded, after the service has set it.
  ({ offboardUserHandler } = await import('@lambdas/events/offboard-user'));
});
afterAll(async () => {
  setClock();
  await service.close();
});
afterEach(() => setClock());

/** A user who has signed in, holds two tokens, is a plain member of one project and owns another. */
const userWithAccess = async () => {
  const email = uniqueEmail('leaver');
  const session = await sessionFor(service, email);
  const owner = await sessionFor(service, uniqueEmail('owner'));
  const tokens = [
    await createToken(service, session, { name: 'ci', scopes: ['admin'] }),
    await createToken(service, session, { name: 'forever', scopes: ['read:secrets'], ttlDays: null }),
  ];
  const joined = await createProject(service, owner, 'Joined');
  const added = await call(service, 'POST', `/api/v1/projects/${joined}/members`, {
    token: owner,
    json: { email, role: 'admin' },
  });
  expect(added.status).toBe(200);
  const owned = await createProject(service, session, 'Owned');
  return { email, session, owner, tokens, joined, owned, userId: String(decodeJwt(session).sub) };
};

describe('offboarding on a Cognito disable or delete', () => {
  it.each(['AdminDisableUser', 'AdminDeleteUser', 'DeleteUser'])(
    '%s revokes every token of the user and removes their memberships but ownerships',
    async (eventName) => {
      const user = await userWithAccess();
      for (const token of user.tokens) {
        expect((await call(service, 'GET', '/api/v1/projects', { token: token.rawToken })).status).toBe(200);
      }

      await offboardUserHandler(cognitoEvent(eventName, user.userId));

      for (const token of user.tokens) {
        const reply = await call(service, 'GET', '/api/v1/projects', { token: token.rawToken });
        expect(reply.status).toBe(401);
        expect(reply.body).toEqual({ success: false, error: ErrorText.unauthorized });
      }
      const joined = await call(service, 'GET', `/api/v1/projects/${user.joined}/members`, { token: user.owner });
      expect(joined.body.data.map((m: { userId: string }) => m.userId)).not.toContain(user.userId);
      const owned = await call(service, 'GET', `/api/v1/projects/${user.owned}/members`, { token: user.owner });
      expect(owned.status).toBe(404);
      // The session the identity provider issued before lives on for an hour, but is refused everywhere.
      const create = await call(service, 'POST', '/api/v1/tokens', {
        token: user.session,
        json: { name: 'after', scopes: ['admin'] },
      });
      expect(create.status).toBe(401);
      expect(create.body).toEqual({ success: false, error: ErrorText.unauthorized });
      const projects = await call(service, 'GET', '/api/v1/projects', { token: user.session });
      expect(projects.body).toEqual({ success: false, error: ErrorText.unauthorized });
    },
  );

  it('leaves the address finding nobody until the user signs in again, and lets a later sign-in create tokens', async () => {
    const user = await userWithAccess();
    const offboardedAt = Date.now();
    await offboardUserHandler(cognitoEvent('AdminDisableUser', user.userId));
    const project = await createProject(service, user.owner, 'After');
    const add = () =>
      call(service, 'POST', `/api/v1/projects/${project}/members`, {
        token: user.owner,
        json: { email: user.email, role: 'member' },
      });
    expect((await add()).body).toEqual({ success: false, error: ErrorText.userNotFound });

    // Re-enabled, the user signs in again: a session issued after the offboarding.
    setClock({ now: () => new Date(offboardedAt + 2_000) });
    const again = await sessionFor(service, user.email);
    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: again,
      json: { name: 'back', scopes: ['admin'] },
    });
    expect(created.status).toBe(201);
    expect((await add()).status).toBe(200);
  });

  it('records each revocation and removal, and the offboarding, as done by the service', async () => {
    const user = await userWithAccess();
    const offboardedAt = Date.now();
    await offboardUserHandler(cognitoEvent('AdminDisableUser', user.userId));

    const projectTrail = await call(service, 'GET', `/api/v1/projects/${user.joined}/audit-events`, {
      token: user.owner,
    });
    expect(projectTrail.body.data[0]).toMatchObject({
      type: 'member.removed',
      actor: { userId: null, via: 'system' },
      target: { projectId: user.joined, userId: user.userId, email: user.email },
      sourceIp: null,
    });

    setClock({ now: () => new Date(offboardedAt + 2_000) });
    const again = await sessionFor(service, user.email);
    const trail = await call(service, 'GET', '/api/v1/audit-events?limit=4', { token: again });
    const types = (trail.body.data as { type: string; actor: { via: string } }[]).map((event) => [
      event.type,
      event.actor.via,
    ]);
    // One offboarding is one instant: its events share their time, so their order among themselves is the ids'.
    expect(types.sort()).toEqual([
      ['member.removed', 'system'],
      ['token.revoked', 'system'],
      ['token.revoked', 'system'],
      ['user.offboarded', 'system'],
    ]);
  });

  it('is idempotent: a second event changes nothing and fails nothing', async () => {
    const user = await userWithAccess();
    const offboardedAt = Date.now();
    await offboardUserHandler(cognitoEvent('AdminDeleteUser', user.userId));
    await expect(offboardUserHandler(cognitoEvent('AdminDeleteUser', user.userId))).resolves.toBeUndefined();
    setClock({ now: () => new Date(offboardedAt + 2_000) });
    const again = await sessionFor(service, user.email);
    const owned = await call(service, 'GET', `/api/v1/projects/${user.owned}/members`, { token: again });
    expect(owned.body.data).toEqual([
      {
        userId: user.userId,
        email: user.email,
        role: 'owner',
        access: { development: 'write', production: 'write', staging: 'write' },
      },
    ]);
  });

  it('skips a call that failed, and fails loudly on an event that names no user', async () => {
    const user = await userWithAccess();
    await offboardUserHandler(cognitoEvent('AdminDisableUser', user.userId, 'UserNotFoundException'));
    expect((await call(service, 'GET', '/api/v1/tokens', { token: user.tokens[0]?.rawToken })).status).toBe(200);
    await expect(offboardUserHandler(cognitoEvent('AdminDisableUser', undefined))).rejects.toThrow(
      'carries no additionalEventData.sub',
    );
  });
});

describe('npm run offboard', () => {
  const offboard = (who: string) =>
    runScript('offboard', [who], {
      DYNAMODB_ENDPOINT: process.env.TEST_DYNAMODB_ENDPOINT,
      TABLE_NAME: process.env.TEST_TABLE_NAME,
    });

  it('offboards by e-mail, reports the ownerships to transfer, and says so again when run twice', async () => {
    const user = await userWithAccess();
    const first = await offboard(user.email.toUpperCase());
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Offboarded user ${user.userId} (${user.email})`);
    for (const token of user.tokens) expect(first.stdout).toContain(token.id);
    expect(first.stdout).toContain(`removed from projects: ${user.joined}`);
    expect(first.stdout).toContain(`still owns (transfer or close these): ${user.owned}`);
    expect((await call(service, 'GET', '/api/v1/tokens', { token: user.tokens[1]?.rawToken })).status).toBe(401);

    const second = await offboard(user.userId);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('tokens revoked: none');
    expect(second.stdout).toContain('removed from projects: none');
    expect(second.stdout).toContain(`still owns (transfer or close these): ${user.owned}`);
  }, 120_000);

  it('names an address nobody holds, and exits non-zero', async () => {
    expect(await offboard(uniqueEmail('nobody'))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No user holds the address'),
    });
  }, 60_000);
});
