import { ErrorText } from '@contract/errors';
import { MAX_ENVIRONMENTS } from '@contract/limits';
import type { LocalService } from '../../local/service';
import { call, createProject, createToken, signedIn, startService } from './harness';

/** A project's environments, black box against `npm start`: who may list, add and delete them, and the rules. */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const environments = (projectId: string) => `/api/v1/projects/${projectId}/environments`;
const environment = (projectId: string, name: string) => `${environments(projectId)}/${name}`;

/** An owner's new project, with a plain member and an admin in it. */
const projectWithTeam = async () => {
  const owner = await signedIn(service, 'owner');
  const member = await signedIn(service, 'member');
  const admin = await signedIn(service, 'admin');
  const projectId = await createProject(service, owner.session);
  for (const [who, role] of [
    [member, 'member'],
    [admin, 'admin'],
  ] as const) {
    const added = await call(service, 'POST', `/api/v1/projects/${projectId}/members`, {
      token: owner.session,
      json: { email: who.email, role },
    });
    expect(added.status).toBe(200);
  }
  return { owner, member, admin, projectId };
};

const names = (reply: { body: { data: { name: string }[] } }) => reply.body.data.map((entry) => entry.name);

describe('environments of a project', () => {
  it('gives a new project development, staging and production, listed by name to every member', async () => {
    const { owner, member, projectId } = await projectWithTeam();
    for (const who of [owner, member]) {
      const listed = await call(service, 'GET', environments(projectId), { token: who.session });
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual(
        ['development', 'production', 'staging'].map((name) => ({
          name,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          secretCount: 0,
          access: 'write',
          protected: false,
          approvals: 1,
          defaultAccess: 'write',
        })),
      );
    }
  });

  it('lets owners and admins add one, listed at once, and refuses a plain member with 403', async () => {
    const { owner, member, admin, projectId } = await projectWithTeam();
    const created = await call(service, 'POST', environments(projectId), {
      token: admin.session,
      json: { name: 'preview-1' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: {
        name: 'preview-1',
        createdAt: expect.any(String),
        secretCount: 0,
        access: 'write',
        protected: false,
        approvals: 1,
        defaultAccess: 'write',
      },
    });
    expect(names(await call(service, 'GET', environments(projectId), { token: owner.session }))).toEqual([
      'development',
      'preview-1',
      'production',
      'staging',
    ]);
    const refused = await call(service, 'POST', environments(projectId), {
      token: member.session,
      json: { name: 'qa' },
    });
    expect([refused.status, refused.body.error]).toEqual([403, ErrorText.projectRole]);
  });

  it('answers 409 Environment already exists for a name the project has', async () => {
    const { owner, projectId } = await projectWithTeam();
    const again = await call(service, 'POST', environments(projectId), {
      token: owner.session,
      json: { name: 'staging' },
    });
    expect([again.status, again.body.error]).toEqual([409, ErrorText.environmentExists]);
  });

  it(`holds a project to ${MAX_ENVIRONMENTS} environments, even when many are added at once`, async () => {
    const { owner, projectId } = await projectWithTeam();
    const add = (name: string) =>
      call(service, 'POST', environments(projectId), { token: owner.session, json: { name } });
    const wanted = Array.from({ length: MAX_ENVIRONMENTS + 5 }, (_, index) => `env-${index}`);
    const first = await Promise.all(wanted.map(add));
    // A write that lost every retry to the others answers 503 and wrote nothing: it is sent again.
    const final = await Promise.all(
      first.map(async (reply, index) => (reply.status === 503 ? add(wanted[index] ?? '') : reply)),
    );
    const outcomes = final.map((reply) => (reply.status === 201 ? 201 : `${reply.status} ${reply.body.error}`));
    // Three exist already: exactly 17 more fit, whatever order the writes land in.
    expect(outcomes.filter((outcome) => outcome === 201)).toHaveLength(MAX_ENVIRONMENTS - 3);
    expect(outcomes.filter((outcome) => outcome !== 201)).toEqual(
      Array.from({ length: 8 }, () => `409 ${ErrorText.environmentLimit}`),
    );
    expect(names(await call(service, 'GET', environments(projectId), { token: owner.session }))).toHaveLength(
      MAX_ENVIRONMENTS,
    );
    const full = await add('one-more');
    expect([full.status, full.body.error]).toEqual([409, ErrorText.environmentLimit]);
    // Deleting one makes room for one.
    expect((await call(service, 'DELETE', environment(projectId, 'staging'), { token: owner.session })).status).toBe(
      200,
    );
    expect((await add('one-more')).status).toBe(201);
    expect([(await add('two-more')).status]).toEqual([409]);
  });

  it('refuses a name that breaks the rule with 400 and a detail for people', async () => {
    const { owner, projectId } = await projectWithTeam();
    for (const name of ['', 'Prod', '-edge', 'edge-', 'a'.repeat(33), 'with space', 'ünï', 7]) {
      const reply = await call(service, 'POST', environments(projectId), { token: owner.session, json: { name } });
      expect([JSON.stringify(name), reply.status, reply.body.error]).toEqual([
        JSON.stringify(name),
        400,
        ErrorText.validation,
      ]);
      expect(reply.body.details).toEqual([{ path: 'name', message: expect.any(String) }]);
      expect(reply.body.details[0].message).not.toMatch(/expected|Invalid/);
    }
    for (const name of ['a', '1', 'a'.repeat(32), 'eu-west-1']) {
      const reply = await call(service, 'POST', environments(projectId), { token: owner.session, json: { name } });
      expect([name, reply.status]).toEqual([name, 201]);
    }
  });

  it('deletes an empty environment, then answers 404 Environment not found for it', async () => {
    const { admin, member, projectId } = await projectWithTeam();
    const byMember = await call(service, 'DELETE', environment(projectId, 'staging'), { token: member.session });
    expect([byMember.status, byMember.body.error]).toEqual([403, ErrorText.projectRole]);
    const deleted = await call(service, 'DELETE', environment(projectId, 'staging'), { token: admin.session });
    expect([deleted.status, deleted.body]).toEqual([200, { success: true }]);
    expect(names(await call(service, 'GET', environments(projectId), { token: admin.session }))).toEqual([
      'development',
      'production',
    ]);
    for (const name of ['staging', 'never-made', 'Not_A_Name']) {
      const missing = await call(service, 'DELETE', environment(projectId, name), { token: admin.session });
      expect([name, missing.status, missing.body.error]).toEqual([name, 404, ErrorText.environmentNotFound]);
    }
  });

  it('starts an environment made again under a deleted one’s name empty: its deleted secrets do not come back', async () => {
    const { admin, projectId } = await projectWithTeam();
    const secret = (name: string) => `${environment(projectId, 'staging')}/secrets/${name}`;
    const as = { token: admin.session };
    for (const value of ['first', 'second']) {
      expect((await call(service, 'PUT', secret('OLD_KEY'), { ...as, json: { value } })).status).toBeLessThan(300);
    }
    expect((await call(service, 'DELETE', secret('OLD_KEY'), as)).status).toBe(200);
    expect((await call(service, 'DELETE', environment(projectId, 'staging'), as)).status).toBe(200);
    const made = await call(service, 'POST', environments(projectId), { ...as, json: { name: 'staging' } });
    expect([made.status, made.body.data?.secretCount]).toEqual([201, 0]);

    const listed = await call(service, 'GET', `${environment(projectId, 'staging')}/secrets`, as);
    expect([listed.status, listed.body.data]).toEqual([200, []]);
    const deleted = await call(service, 'GET', `${environment(projectId, 'staging')}/secrets?deleted=true`, as);
    expect([deleted.status, deleted.body.data]).toEqual([200, []]);
    const notFound = { success: false, error: ErrorText.secretNotFound };
    expect((await call(service, 'GET', `${secret('OLD_KEY')}/versions`, as)).body).toEqual(notFound);
    expect((await call(service, 'GET', `${secret('OLD_KEY')}?version=2`, as)).body).toEqual(notFound);
    expect((await call(service, 'POST', `${secret('OLD_KEY')}/restore`, { ...as, json: { version: 2 } })).body).toEqual(
      notFound,
    );
    expect((await call(service, 'GET', `${environment(projectId, 'staging')}/export`, as)).body.data).toEqual({});

    // The name is free: written again, it starts at version 1 with no history of the deleted one.
    const written = await call(service, 'PUT', secret('OLD_KEY'), { ...as, json: { value: 'new' } });
    expect([written.status, written.body.data?.version]).toEqual([201, 1]);
    const versions = await call(service, 'GET', `${secret('OLD_KEY')}/versions`, as);
    expect(versions.body.data.map((entry: { version: number }) => entry.version)).toEqual([1]);
  });

  it('answers 404 Project not found to a non-member and for an unknown project, on every environment route', async () => {
    const { projectId } = await projectWithTeam();
    const stranger = await signedIn(service, 'stranger');
    const unknown = 'prj_AAAAAAAAAAAAAAAA';
    for (const id of [projectId, unknown]) {
      const replies = [
        await call(service, 'GET', environments(id), { token: stranger.session }),
        await call(service, 'POST', environments(id), { token: stranger.session, json: { name: 'qa' } }),
        await call(service, 'DELETE', environment(id, 'staging'), { token: stranger.session }),
      ];
      expect(replies.map((reply) => [reply.status, reply.body.error])).toEqual(
        replies.map(() => [404, ErrorText.projectNotFound]),
      );
    }
  });

  it('lets an API token list with read:secrets, and manage only with admin', async () => {
    const { owner, projectId } = await projectWithTeam();
    const reader = await createToken(service, owner.session, { name: 'reader', scopes: ['read:secrets'] });
    const adminToken = await createToken(service, owner.session, { name: 'admin', scopes: ['admin'] });
    expect((await call(service, 'GET', environments(projectId), { token: reader.rawToken })).status).toBe(200);
    const refused = await call(service, 'POST', environments(projectId), {
      token: reader.rawToken,
      json: { name: 'qa' },
    });
    expect([refused.status, refused.body.error]).toEqual([403, ErrorText.scope]);
    const created = await call(service, 'POST', environments(projectId), {
      token: adminToken.rawToken,
      json: { name: 'qa' },
    });
    expect(created.status).toBe(201);
  });

  it("records environment.created and environment.deleted in the project's trail", async () => {
    const { owner, projectId } = await projectWithTeam();
    expect(
      (await call(service, 'POST', environments(projectId), { token: owner.session, json: { name: 'qa' } })).status,
    ).toBe(201);
    expect((await call(service, 'DELETE', environment(projectId, 'qa'), { token: owner.session })).status).toBe(200);
    const trail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events`, { token: owner.session });
    const events = (
      trail.body.data as { type: string; target: { projectId: string }; details: { environment: string } }[]
    )
      .filter((event) => event.type.startsWith('environment.'))
      .map((event) => [event.type, event.target.projectId, event.details.environment]);
    expect(events.sort()).toEqual([
      ['environment.created', projectId, 'qa'],
      ['environment.deleted', projectId, 'qa'],
    ]);
  });
});
