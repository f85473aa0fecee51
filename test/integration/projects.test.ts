import { ErrorText } from '@contract/errors';
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
