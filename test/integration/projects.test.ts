import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ErrorText } from '@contract/errors';
import { membershipKey } from '@lambdas/data/keys';
import { decodeJwt } from 'jose';
import type { LocalService } from '../../local/service';
import { call, createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';
import { DECEPTIVE_NAME_MESSAGE, DECEPTIVE_NAMES, PLAIN_NAMES } from './names';

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

/** A user who has signed in once (so the profile exists), with their e-mail and session. */
const signedInUser = async (label = 'user') => {
  const email = uniqueEmail(label);
  const session = await sessionFor(service, email);
  expect((await call(service, 'GET', '/api/v1/projects', { token: session })).status).toBe(200);
  return { email, session };
};

const members = (projectId: string) => `/api/v1/projects/${projectId}/members`;
/** Adds a member as `actor` and returns the reply. */
const addMember = (actor: { session: string }, projectId: string, email: string, role = 'member') =>
  call(service, 'POST', members(projectId), { token: actor.session, json: { email, role } });
const member = (projectId: string, email: string) => `${members(projectId)}/${encodeURIComponent(email)}`;
const me = (projectId: string) => `${members(projectId)}/me`;
const seen = (projectId: string) => `${me(projectId)}/seen`;
/** The caller's entry of a project in their project list. */
const listed = async (token: string, projectId: string) =>
  (await call(service, 'GET', '/api/v1/projects', { token })).body.data.find(
    (project: { projectId: string }) => project.projectId === projectId,
  );
/** The projects `GET /me` says the session was added to and has not opened. */
const addedTo = async (session: string) =>
  (await call(service, 'GET', '/api/v1/me', { token: session })).body.data.addedTo as { projectId: string }[];
const userIdOf = (session: string) => decodeJwt(session).sub;

describe('POST /api/v1/projects', () => {
  it('creates a project whose creator is its owner', async () => {
    const owner = await signedInUser('owner');
    const reply = await call(service, 'POST', '/api/v1/projects', {
      token: owner.session,
      json: { name: ' Payments ' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.success).toBe(true);
    expect(Object.keys(reply.body.data).sort()).toEqual(['createdAt', 'name', 'projectId']);
    expect(reply.body.data.name).toBe('Payments');

    const listed = await call(service, 'GET', members(reply.body.data.projectId), { token: owner.session });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      {
        userId: expect.any(String),
        email: owner.email,
        role: 'owner',
        access: { development: 'write', production: 'write', staging: 'write' },
      },
    ]);
  });

  it('answers 400 for an empty name or unknown fields', async () => {
    const owner = await signedInUser();
    for (const body of [{}, { name: '' }, { name: 'x', extra: 1 }, { name: 'x'.repeat(101) }]) {
      const reply = await call(service, 'POST', '/api/v1/projects', { token: owner.session, json: body });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toBe(ErrorText.validation);
    }
  });

  it('refuses a name with control, bidirectional or invisible characters, and keeps any script', async () => {
    const owner = await signedInUser();
    for (const name of DECEPTIVE_NAMES) {
      const reply = await call(service, 'POST', '/api/v1/projects', { token: owner.session, json: { name } });
      expect([JSON.stringify(name), reply.status, reply.body.error]).toEqual([
        JSON.stringify(name),
        400,
        ErrorText.validation,
      ]);
      expect(reply.body.details).toEqual([{ path: 'name', message: expect.stringMatching(DECEPTIVE_NAME_MESSAGE) }]);
    }
    for (const name of PLAIN_NAMES) {
      const reply = await call(service, 'POST', '/api/v1/projects', { token: owner.session, json: { name } });
      expect([name, reply.status, reply.body.data?.name]).toEqual([name, 201, name]);
    }
  });
});

describe('GET /api/v1/projects', () => {
  it('lists the projects the caller belongs to with the caller’s role', async () => {
    const owner = await signedInUser('owner');
    const guest = await signedInUser('guest');
    const first = await createProject(service, owner.session, 'First');
    const second = await createProject(service, owner.session, 'Second');
    await createProject(service, guest.session, 'Guest own');
    await addMember(owner, second, guest.email, 'admin');

    const ownerList = await call(service, 'GET', '/api/v1/projects', { token: owner.session });
    expect(ownerList.body.data.map((p: { projectId: string; role: string }) => [p.projectId, p.role])).toEqual([
      [first, 'owner'],
      [second, 'owner'],
    ]);
    const guestList = await call(service, 'GET', '/api/v1/projects', { token: guest.session });
    expect(guestList.body.data).toHaveLength(2);
    expect(guestList.body.data).toContainEqual({
      projectId: second,
      name: 'Second',
      createdAt: expect.any(String),
      role: 'admin',
      addedBy: { userId: decodeJwt(owner.session).sub, email: owner.email },
      addedAt: expect.any(String),
    });
  });
});

describe('GET /api/v1/projects/:projectId/members', () => {
  it('lists the owner first, then members by e-mail', async () => {
    const owner = await signedInUser('zed');
    const b = await signedInUser('bravo');
    const a = await signedInUser('alpha');
    const projectId = await createProject(service, owner.session);
    for (const user of [b, a]) {
      const added = await addMember(owner, projectId, user.email, 'member');
      expect(added.status).toBe(200);
    }
    const reply = await call(service, 'GET', members(projectId), { token: owner.session });
    expect(reply.body.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [a.email, 'member'],
      [b.email, 'member'],
    ]);
  });

  it('answers 404 Project not found to a non-member and for an unknown or malformed project', async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const projectId = await createProject(service, owner.session);
    for (const path of [members(projectId), members('prj_AAAAAAAAAAAAAAAA'), members('nope')]) {
      const reply = await call(service, 'GET', path, { token: stranger.session });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ success: false, error: ErrorText.projectNotFound });
    }
  });

  it('lets a read:secrets token of a member list members', async () => {
    const owner = await signedInUser();
    const projectId = await createProject(service, owner.session);
    const { rawToken } = await createToken(service, owner.session, { name: 'r', scopes: ['read:secrets'] });
    expect((await call(service, 'GET', members(projectId), { token: rawToken })).status).toBe(200);
  });
});

describe('POST /api/v1/projects/:projectId/members', () => {
  it('adds a signed-in user, normalising the e-mail', async () => {
    const owner = await signedInUser();
    const newcomer = await signedInUser();
    const projectId = await createProject(service, owner.session);
    const reply = await call(service, 'POST', members(projectId), {
      token: owner.session,
      json: { email: `  ${newcomer.email.toUpperCase()} `, role: 'member' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, message: 'Member added successfully' });
    const list = await call(service, 'GET', members(projectId), { token: newcomer.session });
    expect(list.body.data.map((m: { email: string }) => m.email)).toContain(newcomer.email);
  });

  it('answers 404 User not found for an e-mail that never signed in', async () => {
    const owner = await signedInUser();
    const projectId = await createProject(service, owner.session);
    const reply = await call(service, 'POST', members(projectId), {
      token: owner.session,
      json: { email: uniqueEmail('ghost'), role: 'member' },
    });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ success: false, error: ErrorText.userNotFound });
  });

  it('answers 409 for a user who is already a member, the owner included', async () => {
    const owner = await signedInUser();
    const newcomer = await signedInUser();
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, newcomer.email, 'member');
    for (const email of [newcomer.email, owner.email]) {
      const reply = await call(service, 'POST', members(projectId), {
        token: owner.session,
        json: { email, role: 'admin' },
      });
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({ success: false, error: ErrorText.alreadyMember });
    }
  });

  it('answers 403 Insufficient project role to a plain member, and lets an admin add', async () => {
    const owner = await signedInUser();
    const plain = await signedInUser();
    const admin = await signedInUser();
    const newcomer = await signedInUser();
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, plain.email, 'member');
    await addMember(owner, projectId, admin.email, 'admin');

    const denied = await addMember(plain, projectId, newcomer.email, 'member');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ success: false, error: ErrorText.projectRole });
    const allowed = await addMember(admin, projectId, newcomer.email, 'member');
    expect(allowed.status).toBe(200);
  });

  it('answers 404 Project not found to a non-member', async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const projectId = await createProject(service, owner.session);
    const reply = await addMember(stranger, projectId, stranger.email, 'admin');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ success: false, error: ErrorText.projectNotFound });
  });

  it.each([
    ['the owner role', { role: 'owner' }],
    ['an unknown role', { role: 'superuser' }],
    ['a malformed e-mail', { email: 'not-an-email' }],
    ['a missing role', { role: undefined }],
  ])('answers 400 Validation failed for %s', async (_label, overrides) => {
    const owner = await signedInUser();
    const projectId = await createProject(service, owner.session);
    const reply = await call(service, 'POST', members(projectId), {
      token: owner.session,
      json: { email: uniqueEmail(), role: 'member', ...overrides },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe(ErrorText.validation);
  });

  it('admits exactly one of 20 parallel adds of the same e-mail', async () => {
    const owner = await signedInUser();
    const newcomer = await signedInUser();
    const projectId = await createProject(service, owner.session);
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => addMember(owner, projectId, newcomer.email, 'member')),
    );
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const list = await call(service, 'GET', members(projectId), { token: owner.session });
    expect(list.body.data.filter((m: { email: string }) => m.email === newcomer.email)).toHaveLength(1);
  });
});

describe('DELETE /api/v1/projects/:projectId/members/:email', () => {
  it('removes a member, decoding the e-mail in the path', async () => {
    const owner = await signedInUser();
    const leaving = await signedInUser();
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, leaving.email, 'member');
    const reply = await call(service, 'DELETE', member(projectId, leaving.email), { token: owner.session });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, message: 'Member removed successfully' });
    const list = await call(service, 'GET', members(projectId), { token: owner.session });
    expect(list.body.data.map((m: { email: string }) => m.email)).toEqual([owner.email]);
    expect((await call(service, 'GET', members(projectId), { token: leaving.session })).status).toBe(404);
  });

  it('answers 404 Member not found for a non-member and 409 for the owner', async () => {
    const owner = await signedInUser();
    const admin = await signedInUser();
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, admin.email, 'admin');

    const missing = await call(service, 'DELETE', member(projectId, uniqueEmail()), { token: owner.session });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, error: ErrorText.memberNotFound });
    for (const actor of [owner, admin]) {
      const reply = await call(service, 'DELETE', member(projectId, owner.email), { token: actor.session });
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({ success: false, error: ErrorText.ownerRemoval });
    }
  });

  it('answers 403 to a plain member and 404 to a stranger', async () => {
    const owner = await signedInUser();
    const plain = await signedInUser();
    const stranger = await signedInUser();
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, plain.email, 'member');
    const denied = await call(service, 'DELETE', member(projectId, plain.email), { token: plain.session });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ success: false, error: ErrorText.projectRole });
    const hidden = await call(service, 'DELETE', member(projectId, plain.email), { token: stranger.session });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ success: false, error: ErrorText.projectNotFound });
  });

  it('answers one 200 and the rest 404 to parallel removes of the same member', async () => {
    const owner = await signedInUser();
    const leaving = await signedInUser();
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, leaving.email, 'member');
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(service, 'DELETE', member(projectId, leaving.email), { token: owner.session }),
      ),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(9);
  });

  it('lets an admin token of the owner remove members, and refuses a read-only token', async () => {
    const owner = await signedInUser();
    const leaving = await signedInUser();
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, leaving.email, 'member');
    const reader = await createToken(service, owner.session, { name: 'r', scopes: ['read:secrets'] });
    const admin = await createToken(service, owner.session, { name: 'a', scopes: ['admin'] });
    const denied = await call(service, 'DELETE', member(projectId, leaving.email), { token: reader.rawToken });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ success: false, error: ErrorText.scope });
    expect((await call(service, 'DELETE', member(projectId, leaving.email), { token: admin.rawToken })).status).toBe(
      200,
    );
  });
});

describe('the notice of who added a member', () => {
  it('shows the person added who added them and when, in the project list and GET /me, until they open the project', async () => {
    const owner = await signedInUser('owner');
    const guest = await signedInUser('guest');
    const projectId = await createProject(service, owner.session, 'Hostile');
    const before = new Date().toISOString();
    await addMember(owner, projectId, guest.email, 'member');

    const entry = await listed(guest.session, projectId);
    expect(entry).toEqual({
      projectId,
      name: 'Hostile',
      createdAt: expect.any(String),
      role: 'member',
      addedBy: { userId: userIdOf(owner.session), email: owner.email },
      addedAt: expect.any(String),
    });
    expect(entry.addedAt >= before).toBe(true);
    expect(await addedTo(guest.session)).toEqual([
      { projectId, name: 'Hostile', role: 'member', addedBy: entry.addedBy, addedAt: entry.addedAt },
    ]);
    // The owner was added by nobody.
    expect(await listed(owner.session, projectId)).toMatchObject({ role: 'owner', addedBy: null, addedAt: null });
    expect(await addedTo(owner.session)).toEqual([]);

    const opened = await call(service, 'POST', seen(projectId), { token: guest.session });
    expect([opened.status, opened.body]).toEqual([200, { success: true }]);
    expect(await listed(guest.session, projectId)).toMatchObject({ role: 'member', addedBy: null, addedAt: null });
    expect(await addedTo(guest.session)).toEqual([]);
    // Opening again, or as the owner, has nothing left to mark.
    for (const session of [guest.session, owner.session]) {
      const again = await call(service, 'POST', seen(projectId), { token: session });
      expect([again.status, again.body]).toEqual([200, { success: true }]);
    }
  });

  it('stays while the person’s tokens work in the project, and no token may clear it', async () => {
    const owner = await signedInUser('owner');
    const guest = await signedInUser('guest');
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, guest.email, 'admin');
    const token = await createToken(service, guest.session, { name: 'ci', scopes: ['admin'] });
    const reader = await createToken(service, guest.session, { name: 'r', scopes: ['read:secrets'] });

    expect((await call(service, 'GET', members(projectId), { token: token.rawToken })).status).toBe(200);
    const write = await call(service, 'PUT', `/api/v1/projects/${projectId}/environments/development/secrets/API_KEY`, {
      token: token.rawToken,
      json: { value: 'from a script' },
    });
    expect(write.status).toBe(201);
    const refused = await call(service, 'POST', seen(projectId), { token: token.rawToken });
    expect([refused.status, refused.body]).toEqual([403, { success: false, error: ErrorText.sessionRequired }]);

    expect((await listed(reader.rawToken, projectId)).addedBy).toEqual({
      userId: userIdOf(owner.session),
      email: owner.email,
    });
    expect((await listed(guest.session, projectId)).addedBy).not.toBeNull();
  });

  it('names the owner of the token that added the person', async () => {
    const owner = await signedInUser('owner');
    const guest = await signedInUser('guest');
    const projectId = await createProject(service, owner.session);
    const { rawToken } = await createToken(service, owner.session, { name: 'admin', scopes: ['admin'] });
    const added = await call(service, 'POST', members(projectId), {
      token: rawToken,
      json: { email: guest.email, role: 'member' },
    });
    expect(added.status).toBe(200);
    expect((await listed(guest.session, projectId)).addedBy).toEqual({
      userId: userIdOf(owner.session),
      email: owner.email,
    });
  });

  it('answers 404 Project not found to a stranger opening the project, and marks nothing', async () => {
    const owner = await signedInUser('owner');
    const guest = await signedInUser('guest');
    const stranger = await signedInUser('stranger');
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, guest.email, 'member');
    for (const path of [seen(projectId), seen('prj_AAAAAAAAAAAAAAAA'), seen('nope')]) {
      const reply = await call(service, 'POST', path, { token: stranger.session });
      expect([path, reply.status, reply.body]).toEqual([
        path,
        404,
        { success: false, error: ErrorText.projectNotFound },
      ]);
    }
    expect((await listed(guest.session, projectId)).addedBy).not.toBeNull();
  });

  it('shows none for a membership added before adders were recorded', async () => {
    const owner = await signedInUser('owner');
    const guest = await signedInUser('guest');
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, guest.email, 'member');
    // The member's copy as the service wrote it before this change: no adder.
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.TEST_DYNAMODB_ENDPOINT }));
    try {
      await client.send(
        new UpdateCommand({
          TableName: process.env.TEST_TABLE_NAME,
          Key: membershipKey(userIdOf(guest.session) ?? '', projectId),
          UpdateExpression: 'REMOVE addedBy',
        }),
      );
    } finally {
      client.destroy();
    }
    expect(await listed(guest.session, projectId)).toMatchObject({ role: 'member', addedBy: null, addedAt: null });
    expect(await addedTo(guest.session)).toEqual([]);
    const opened = await call(service, 'POST', seen(projectId), { token: guest.session });
    expect([opened.status, opened.body]).toEqual([200, { success: true }]);
  });

  it('shows again when the person is added again after leaving', async () => {
    const owner = await signedInUser('owner');
    const guest = await signedInUser('guest');
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, guest.email, 'member');
    expect((await call(service, 'POST', seen(projectId), { token: guest.session })).status).toBe(200);
    expect((await call(service, 'DELETE', me(projectId), { token: guest.session })).status).toBe(200);
    await addMember(owner, projectId, guest.email, 'member');
    expect((await listed(guest.session, projectId)).addedBy).toEqual({
      userId: userIdOf(owner.session),
      email: owner.email,
    });
  });
});

describe('DELETE /api/v1/projects/:projectId/members/me', () => {
  it('takes a member out of the project, recorded as member.left by and about them in both trails', async () => {
    const owner = await signedInUser('owner');
    const leaving = await signedInUser('leaving');
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, leaving.email, 'member');

    const reply = await call(service, 'DELETE', me(projectId), { token: leaving.session });
    expect([reply.status, reply.body]).toEqual([200, { success: true, message: 'Left the project' }]);
    expect(await listed(leaving.session, projectId)).toBeUndefined();
    expect(await addedTo(leaving.session)).toEqual([]);
    const list = await call(service, 'GET', members(projectId), { token: owner.session });
    expect(list.body.data.map((m: { email: string }) => m.email)).toEqual([owner.email]);
    expect((await call(service, 'GET', members(projectId), { token: leaving.session })).status).toBe(404);

    const leaver = { userId: userIdOf(leaving.session), email: leaving.email };
    const projectTrail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events?type=member.left`, {
      token: owner.session,
    });
    const ownTrail = await call(service, 'GET', '/api/v1/audit-events?type=member.left', { token: leaving.session });
    for (const trail of [projectTrail, ownTrail]) {
      expect(trail.body.data).toEqual([
        expect.objectContaining({
          type: 'member.left',
          actor: expect.objectContaining({ ...leaver, via: 'session' }),
          target: expect.objectContaining({ ...leaver, projectId }),
        }),
      ]);
    }
  });

  it('lets an admin leave with an admin token, and refuses a token without admin with the scope error', async () => {
    const owner = await signedInUser('owner');
    const admin = await signedInUser('admin');
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, admin.email, 'admin');
    const reader = await createToken(service, admin.session, { name: 'r', scopes: ['read:secrets', 'write:secrets'] });
    const token = await createToken(service, admin.session, { name: 'a', scopes: ['admin'] });

    const denied = await call(service, 'DELETE', me(projectId), { token: reader.rawToken });
    expect([denied.status, denied.body]).toEqual([403, { success: false, error: ErrorText.scope }]);
    const left = await call(service, 'DELETE', me(projectId), { token: token.rawToken });
    expect(left.status).toBe(200);
    const trail = await call(service, 'GET', '/api/v1/audit-events?type=member.left', { token: admin.session });
    expect(trail.body.data).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ via: 'token', tokenId: token.id }) }),
    ]);
  });

  it('answers 409 to the owner, with a session or a token, and the project keeps its owner', async () => {
    const owner = await signedInUser('owner');
    const projectId = await createProject(service, owner.session);
    const { rawToken } = await createToken(service, owner.session, { name: 'a', scopes: ['admin'] });
    for (const token of [owner.session, rawToken]) {
      const reply = await call(service, 'DELETE', me(projectId), { token });
      expect([reply.status, reply.body]).toEqual([409, { success: false, error: ErrorText.ownerRemoval }]);
    }
    expect(await listed(owner.session, projectId)).toMatchObject({ role: 'owner' });
    const trail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events?type=member.left`, {
      token: owner.session,
    });
    expect(trail.body.data).toEqual([]);
  });

  it('answers 404 Project not found to a stranger and for an unknown or malformed project', async () => {
    const owner = await signedInUser('owner');
    const stranger = await signedInUser('stranger');
    const projectId = await createProject(service, owner.session);
    for (const path of [me(projectId), me('prj_AAAAAAAAAAAAAAAA'), me('nope')]) {
      const reply = await call(service, 'DELETE', path, { token: stranger.session });
      expect([path, reply.status, reply.body]).toEqual([
        path,
        404,
        { success: false, error: ErrorText.projectNotFound },
      ]);
    }
  });

  it('answers one 200 and the rest 404 to parallel leaves', async () => {
    const owner = await signedInUser('owner');
    const leaving = await signedInUser('leaving');
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, leaving.email, 'member');
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => call(service, 'DELETE', me(projectId), { token: leaving.session })),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(9);
  });

  it('stands beside DELETE …/members/{email}, which still removes the member an address names', async () => {
    const owner = await signedInUser('owner');
    const other = await signedInUser('other');
    const projectId = await createProject(service, owner.session);
    await addMember(owner, projectId, other.email, 'member');
    // `me` is not an address: it never names a member to remove.
    const removed = await call(service, 'DELETE', member(projectId, other.email), { token: owner.session });
    expect([removed.status, removed.body]).toEqual([200, { success: true, message: 'Member removed successfully' }]);
    const list = await call(service, 'GET', members(projectId), { token: owner.session });
    expect(list.body.data.map((m: { email: string }) => m.email)).toEqual([owner.email]);
    const access = await call(service, 'PUT', `${me(projectId)}/access`, {
      token: owner.session,
      json: { access: { production: 'read' } },
    });
    expect([access.status, access.body]).toEqual([404, { success: false, error: ErrorText.memberNotFound }]);
  });
});
