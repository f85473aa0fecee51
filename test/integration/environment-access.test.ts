import { ErrorText } from '@contract/errors';
import type { LocalService } from '../../local/service';
import { arrange, call, createProject, createToken, signedIn, startService } from './harness';

/**
 * Access per environment, black box against `npm start`: a plain member's level in each environment
 * (`none`, `read`, `write`) decides every route beneath it, for their sessions and their tokens alike;
 * owners and admins write everywhere; a protected environment takes no direct write.
 */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const project = (projectId: string) => `/api/v1/projects/${projectId}`;
const secrets = (projectId: string, environment: string) => `${project(projectId)}/environments/${environment}/secrets`;
const accessOf = (projectId: string, email: string) =>
  `${project(projectId)}/members/${encodeURIComponent(email)}/access`;

/** An owner's project with a secret in production and staging, a plain member and an admin. */
const projectWithTeam = async () => {
  const owner = await signedIn(service, 'owner');
  const member = await signedIn(service, 'member');
  const admin = await signedIn(service, 'admin');
  const projectId = await createProject(service, owner.session);
  for (const [who, role] of [
    [member, 'member'],
    [admin, 'admin'],
  ] as const) {
    const added = await arrange(service, 'POST', `${project(projectId)}/members`, {
      token: owner.session,
      json: { email: who.email, role },
    });
    expect(added.status).toBe(200);
  }
  for (const environment of ['production', 'staging']) {
    const written = await arrange(service, 'PUT', `${secrets(projectId, environment)}/API_KEY`, {
      token: owner.session,
      json: { value: `${environment}-key` },
    });
    expect(written.status).toBe(201);
  }
  return { owner, member, admin, projectId };
};

const setAccess = async (projectId: string, by: string, email: string, access: Record<string, string>) =>
  call(service, 'PUT', accessOf(projectId, email), { token: by, json: { access } });

/** Every route beneath an environment, as `[label, method, path, body]`, for a secret named API_KEY. */
const environmentRoutes = (projectId: string, environment: string) => {
  const base = secrets(projectId, environment);
  return {
    read: [
      ['list', 'GET', base, undefined],
      ['list deleted', 'GET', `${base}?deleted=true`, undefined],
      ['get', 'GET', `${base}/API_KEY`, undefined],
      ['versions', 'GET', `${base}/API_KEY/versions`, undefined],
      ['export', 'GET', `${project(projectId)}/environments/${environment}/export`, undefined],
    ],
    write: [
      ['put', 'PUT', `${base}/API_KEY`, { value: 'changed' }],
      ['patch', 'PATCH', base, { set: { OTHER: 'x' } }],
      ['restore', 'POST', `${base}/API_KEY/restore`, { version: 1 }],
      ['delete', 'DELETE', `${base}/API_KEY`, undefined],
    ],
  } as const;
};

const refusal = { success: false, error: ErrorText.environmentAccess };

describe('access per environment', () => {
  it('shows each member’s access per environment: write everywhere until an owner or admin sets less', async () => {
    const { owner, member, admin, projectId } = await projectWithTeam();
    const everywhere = { development: 'write', production: 'write', staging: 'write' };
    const listed = await call(service, 'GET', `${project(projectId)}/members`, { token: member.session });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((entry: { access: unknown }) => entry.access)).toEqual([
      everywhere,
      everywhere,
      everywhere,
    ]);
    const set = await setAccess(projectId, admin.session, member.email, { production: 'read', staging: 'none' });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({
      userId: expect.any(String),
      email: member.email,
      role: 'member',
      access: { development: 'write', production: 'read', staging: 'none' },
    });
    const after = await call(service, 'GET', `${project(projectId)}/members`, { token: owner.session });
    expect(after.body.data.find((entry: { email: string }) => entry.email === member.email).access).toEqual(
      set.body.data.access,
    );
    const environments = await call(service, 'GET', `${project(projectId)}/environments`, { token: member.session });
    expect(
      Object.fromEntries(
        environments.body.data.map((entry: { name: string; access: string }) => [entry.name, entry.access]),
      ),
    ).toEqual(set.body.data.access);
  });

  it('lets a member with read read everything in the environment and refuses every write with 403, recorded', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    expect((await setAccess(projectId, owner.session, member.email, { production: 'read' })).status).toBe(200);
    const routes = environmentRoutes(projectId, 'production');
    for (const [label, method, path] of routes.read) {
      const reply = await call(service, method, path, { token: member.session });
      expect([label, reply.status]).toEqual([label, 200]);
    }
    for (const [label, method, path, json] of routes.write) {
      const reply = await call(service, method, path, { token: member.session, json });
      expect([label, reply.status, reply.body]).toEqual([label, 403, refusal]);
    }
    const value = await call(service, 'GET', `${secrets(projectId, 'production')}/API_KEY`, { token: owner.session });
    expect([value.body.data.value, value.body.data.version]).toEqual(['production-key', 1]);
    // Staging is still theirs to write.
    const staging = await call(service, 'PUT', `${secrets(projectId, 'staging')}/API_KEY`, {
      token: member.session,
      json: { value: 'member-wrote' },
    });
    expect(staging.status).toBe(200);
    const trail = await call(service, 'GET', `${project(projectId)}/audit-events?type=access.denied`, {
      token: owner.session,
    });
    expect(trail.body.data).toHaveLength(routes.write.length);
    expect(trail.body.data[0]).toMatchObject({
      type: 'access.denied',
      actor: { email: member.email, via: 'session' },
      target: { projectId },
      details: { environment: 'production', needed: 'write' },
    });
  });

  it('hides an environment’s secrets, names included, from a member with none', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    expect((await setAccess(projectId, owner.session, member.email, { production: 'none' })).status).toBe(200);
    const { read, write } = environmentRoutes(projectId, 'production');
    for (const [label, method, path, json] of [...read, ...write]) {
      const reply = await call(service, method, path, { token: member.session, json });
      expect([label, reply.status, reply.body]).toEqual([label, 403, refusal]);
      expect(reply.text).not.toContain('API_KEY');
    }
  });

  it('holds the member’s tokens to the member’s access, checked on every request', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    const token = await createToken(service, member.session, { name: 'ci', scopes: ['read:secrets', 'write:secrets'] });
    const path = `${secrets(projectId, 'production')}/API_KEY`;
    expect((await call(service, 'GET', path, { token: token.rawToken })).status).toBe(200);
    expect((await setAccess(projectId, owner.session, member.email, { production: 'none' })).status).toBe(200);
    const refused = await call(service, 'GET', path, { token: token.rawToken });
    expect([refused.status, refused.body]).toEqual([403, refusal]);
    expect((await setAccess(projectId, owner.session, member.email, { production: 'read' })).status).toBe(200);
    expect((await call(service, 'GET', path, { token: token.rawToken })).status).toBe(200);
    const write = await call(service, 'PUT', path, { token: token.rawToken, json: { value: 'x' } });
    expect([write.status, write.body]).toEqual([403, refusal]);
  });

  it('gives owners and admins write everywhere: their access cannot be set (409)', async () => {
    const { owner, admin, projectId } = await projectWithTeam();
    for (const who of [owner, admin]) {
      const refused = await setAccess(projectId, owner.session, who.email, { production: 'read' });
      expect([refused.status, refused.body.error]).toEqual([409, ErrorText.accessFixed]);
    }
    const written = await call(service, 'PUT', `${secrets(projectId, 'production')}/API_KEY`, {
      token: admin.session,
      json: { value: 'admin-wrote' },
    });
    expect(written.status).toBe(200);
  });

  it('lets only owners and admins set access, to members and environments that exist', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    const stranger = await signedIn(service, 'stranger');
    const byMember = await setAccess(projectId, member.session, member.email, { production: 'write' });
    expect([byMember.status, byMember.body.error]).toEqual([403, ErrorText.projectRole]);
    const byStranger = await setAccess(projectId, stranger.session, member.email, { production: 'write' });
    expect([byStranger.status, byStranger.body.error]).toEqual([404, ErrorText.projectNotFound]);
    const notMember = await setAccess(projectId, owner.session, stranger.email, { production: 'read' });
    expect([notMember.status, notMember.body.error]).toEqual([404, ErrorText.memberNotFound]);
    const noEnvironment = await setAccess(projectId, owner.session, member.email, { qa: 'read' });
    expect([noEnvironment.status, noEnvironment.body.error]).toEqual([404, ErrorText.environmentNotFound]);
    const badLevel = await setAccess(projectId, owner.session, member.email, { production: 'admin' });
    expect([badLevel.status, badLevel.body.error]).toEqual([400, ErrorText.validation]);
    const nothing = await setAccess(projectId, owner.session, member.email, {});
    expect([nothing.status, nothing.body.error]).toEqual([400, ErrorText.validation]);
  });

  it('gives members an environment’s default access, which an owner may lower, and forgets a level with its environment', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    const settings = await call(service, 'PATCH', `${project(projectId)}/environments/staging`, {
      token: owner.session,
      json: { defaultAccess: 'read' },
    });
    expect(settings.status).toBe(200);
    expect(settings.body.data).toMatchObject({ name: 'staging', defaultAccess: 'read', access: 'write' });
    const write = await call(service, 'PUT', `${secrets(projectId, 'staging')}/API_KEY`, {
      token: member.session,
      json: { value: 'x' },
    });
    expect([write.status, write.body]).toEqual([403, refusal]);
    // A level set in an environment that is deleted and made again does not outlive it.
    const created = await call(service, 'POST', `${project(projectId)}/environments`, {
      token: owner.session,
      json: { name: 'qa' },
    });
    expect(created.status).toBe(201);
    expect((await setAccess(projectId, owner.session, member.email, { qa: 'none' })).status).toBe(200);
    expect(
      (await call(service, 'DELETE', `${project(projectId)}/environments/qa`, { token: owner.session })).status,
    ).toBe(200);
    expect(
      (
        await call(service, 'POST', `${project(projectId)}/environments`, {
          token: owner.session,
          json: { name: 'qa' },
        })
      ).status,
    ).toBe(201);
    const members = await call(service, 'GET', `${project(projectId)}/members`, { token: owner.session });
    expect(members.body.data.find((entry: { email: string }) => entry.email === member.email).access).toMatchObject({
      qa: 'write',
      staging: 'read',
    });
  });
});

describe('protected environments', () => {
  it('takes no direct write, not even the owner’s, and names the change-request route; reads go on', async () => {
    const { owner, projectId } = await projectWithTeam();
    const protect = await call(service, 'PATCH', `${project(projectId)}/environments/production`, {
      token: owner.session,
      json: { protected: true, approvals: 2 },
    });
    expect(protect.status).toBe(200);
    expect(protect.body.data).toMatchObject({ name: 'production', protected: true, approvals: 2 });
    const { read, write } = environmentRoutes(projectId, 'production');
    for (const [label, method, path, json] of write) {
      const reply = await call(service, method, path, { token: owner.session, json });
      expect([label, reply.status, reply.body.error]).toEqual([label, 409, ErrorText.environmentProtected]);
      expect(reply.body.details).toEqual([
        {
          path: 'environment',
          message: expect.stringContaining(
            `POST /api/v1/projects/${projectId}/environments/production/change-requests`,
          ),
        },
      ]);
    }
    for (const [label, method, path] of read) {
      expect([label, (await call(service, method, path, { token: owner.session })).status]).toEqual([label, 200]);
    }
    const open = await call(service, 'PATCH', `${project(projectId)}/environments/production`, {
      token: owner.session,
      json: { protected: false },
    });
    expect(open.body.data).toMatchObject({ protected: false, approvals: 2 });
    const written = await call(service, 'PUT', `${secrets(projectId, 'production')}/API_KEY`, {
      token: owner.session,
      json: { value: 'again' },
    });
    expect(written.status).toBe(200);
  });

  it('lets only owners and admins change an environment’s settings, and checks what they send', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    const path = `${project(projectId)}/environments/production`;
    const byMember = await call(service, 'PATCH', path, { token: member.session, json: { protected: true } });
    expect([byMember.status, byMember.body.error]).toEqual([403, ErrorText.projectRole]);
    const missing = await call(service, 'PATCH', `${project(projectId)}/environments/qa`, {
      token: owner.session,
      json: { protected: true },
    });
    expect([missing.status, missing.body.error]).toEqual([404, ErrorText.environmentNotFound]);
    for (const json of [{}, { approvals: 0 }, { approvals: 4 }, { defaultAccess: 'admin' }, { protected: 'yes' }]) {
      const refused = await call(service, 'PATCH', path, { token: owner.session, json });
      expect([JSON.stringify(json), refused.status]).toEqual([JSON.stringify(json), 400]);
    }
  });
});
