import { ErrorText } from '@contract/errors';
import type { LocalService } from '../../local/service';
import { arrange, call, createProject, createToken, type Reply, signedIn, startService } from './harness';

/**
 * Cheap polling, black box against `npm start`: the list and the export of an environment answer an
 * `ETag`; `If-None-Match` with it answers 304 with no body and records no read, until a change of the
 * environment's secrets moves it. Refusals stay refusals.
 */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const project = (projectId: string) => `/api/v1/projects/${projectId}`;
const base = (projectId: string, environment = 'development') => `${project(projectId)}/environments/${environment}`;
const list = (projectId: string, environment?: string) => `${base(projectId, environment)}/secrets`;
const exported = (projectId: string, environment?: string) => `${base(projectId, environment)}/export`;
const secret = (projectId: string, name: string, environment?: string) => `${list(projectId, environment)}/${name}`;

/** An owner's new project with one secret in `development`. */
const projectWithSecret = async () => {
  const owner = await signedIn(service, 'owner');
  const projectId = await createProject(service, owner.session);
  const put = await arrange(service, 'PUT', secret(projectId, 'API_KEY'), {
    token: owner.session,
    json: { value: 'k-1' },
  });
  expect(put.status).toBe(201);
  return { owner, projectId };
};

const get = (token: string, path: string, etag?: string) =>
  call(service, 'GET', path, { token, headers: etag === undefined ? [] : [['If-None-Match', etag]] });

/** The ETag of a 200. */
const tagOf = (reply: Reply): string => {
  expect(reply.status).toBe(200);
  const etag = reply.headers.etag;
  expect(etag).toMatch(/^"[^"]+"$/);
  return etag as string;
};

const reads = async (projectId: string, token: string) => {
  const reply = await call(service, 'GET', `${project(projectId)}/audit-events?type=secret.read&limit=100`, { token });
  expect(reply.status).toBe(200);
  return (reply.body.data as unknown[]).length;
};

describe.each([
  ['the list', list],
  ['the export', exported],
])('%s of an environment', (_name, path) => {
  it('answers an ETag, the same while nothing changes, and 304 with no body and no read for it', async () => {
    const { owner, projectId } = await projectWithSecret();
    const first = tagOf(await get(owner.session, path(projectId)));
    expect(tagOf(await get(owner.session, path(projectId)))).toBe(first);
    const readsBefore = await reads(projectId, owner.session);

    const unchanged = await get(owner.session, path(projectId), first);

    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.etag).toBe(first);
    expect(unchanged.headers['cache-control']).toBe('no-store');
    expect(await reads(projectId, owner.session)).toBe(readsBefore);
    // Another tag, or a list of them holding it, compared weakly.
    expect((await get(owner.session, path(projectId), '"other"')).status).toBe(200);
    expect((await get(owner.session, path(projectId), `"other", W/${first}`)).status).toBe(304);
  });

  it('moves with a write, a delete, a restore, a PATCH and a promote', async () => {
    const { owner, projectId } = await projectWithSecret();
    const seen = [tagOf(await get(owner.session, path(projectId)))];
    const changed = async (method: string, where: string, json?: unknown) => {
      const reply = await arrange(service, method, where, { token: owner.session, json });
      expect(reply.status).toBeLessThan(300);
      const stale = await get(owner.session, path(projectId), seen[seen.length - 1]);
      const tag = tagOf(stale);
      expect(seen).not.toContain(tag);
      seen.push(tag);
    };
    await changed('PUT', secret(projectId, 'API_KEY'), { value: 'k-2' });
    await changed('DELETE', secret(projectId, 'API_KEY'));
    await changed('POST', `${secret(projectId, 'API_KEY')}/restore`, { version: 1 });
    await changed('PATCH', list(projectId), { set: { OTHER: 'o' } });
    await arrange(service, 'PUT', secret(projectId, 'API_KEY', 'staging'), {
      token: owner.session,
      json: { value: 'from-staging' },
    });
    await changed('POST', `${project(projectId)}/promote`, { from: 'staging', to: 'development', names: ['API_KEY'] });
  });

  it('moves when a change request is applied', async () => {
    const { owner, projectId } = await projectWithSecret();
    const protect = await arrange(service, 'PATCH', base(projectId), {
      token: owner.session,
      json: { protected: true },
    });
    expect(protect.status).toBe(200);
    const before = tagOf(await get(owner.session, path(projectId)));
    const proposed = await call(service, 'POST', `${base(projectId)}/change-requests`, {
      token: owner.session,
      json: { set: { API_KEY: 'k-applied' } },
    });
    expect(proposed.status).toBe(201);
    // A proposal writes no secret.
    expect((await get(owner.session, path(projectId), before)).status).toBe(304);
    const applied = await call(service, 'POST', `${base(projectId)}/change-requests/${proposed.body.data.id}/apply`, {
      token: owner.session,
      json: { reason: 'Applied by the owner alone' },
    });
    expect(applied.status).toBe(200);
    expect(tagOf(await get(owner.session, path(projectId), before))).not.toBe(before);
  });

  it('never matches in another environment, nor in the environment made again under its name', async () => {
    const { owner, projectId } = await projectWithSecret();
    const qa = `${project(projectId)}/environments`;
    expect((await arrange(service, 'POST', qa, { token: owner.session, json: { name: 'qa' } })).status).toBe(201);
    const empty = tagOf(await get(owner.session, path(projectId, 'qa')));
    expect(tagOf(await get(owner.session, path(projectId, 'staging'), empty))).not.toBe(empty);
    const deleted = await arrange(service, 'DELETE', base(projectId, 'qa'), { token: owner.session });
    expect(deleted.status).toBeLessThan(300);
    expect((await arrange(service, 'POST', qa, { token: owner.session, json: { name: 'qa' } })).status).toBe(201);

    expect(tagOf(await get(owner.session, path(projectId, 'qa'), empty))).not.toBe(empty);
  });

  it('refuses with If-None-Match whom it refuses without: a stranger, a member with none, a token without the scope', async () => {
    const { owner, projectId } = await projectWithSecret();
    const etag = tagOf(await get(owner.session, path(projectId)));
    const stranger = await signedIn(service, 'stranger');
    const member = await signedIn(service, 'member');
    const added = await arrange(service, 'POST', `${project(projectId)}/members`, {
      token: owner.session,
      json: { email: member.email, role: 'member' },
    });
    expect(added.status).toBe(200);
    const none = await arrange(
      service,
      'PUT',
      `${project(projectId)}/members/${encodeURIComponent(member.email)}/access`,
      {
        token: owner.session,
        json: { access: { development: 'none' } },
      },
    );
    expect(none.status).toBe(200);
    const writeOnly = await createToken(service, owner.session, { name: 'writer', scopes: ['write:secrets'] });

    const byStranger = await get(stranger.session, path(projectId), etag);
    expect([byStranger.status, byStranger.body.error]).toEqual([404, ErrorText.projectNotFound]);
    const byMember = await get(member.session, path(projectId), etag);
    expect([byMember.status, byMember.body.error]).toEqual([403, ErrorText.environmentAccess]);
    const byToken = await get(writeOnly.rawToken, path(projectId), etag);
    expect([byToken.status, byToken.body.error]).toEqual([403, ErrorText.scope]);
    const anonymous = await call(service, 'GET', path(projectId), { headers: [['If-None-Match', etag]] });
    expect(anonymous.status).toBe(401);
  });
});

describe('references into other environments', () => {
  /** A project whose development refers to staging, and staging to another project's production. */
  const referring = async () => {
    const { owner, projectId } = await projectWithSecret();
    const other = await createProject(service, owner.session);
    const write = async (where: string, value: string) => {
      const reply = await arrange(service, 'PUT', where, { token: owner.session, json: { value } });
      expect(reply.status).toBeLessThan(300);
    };
    await write(secret(other, 'PASSWORD', 'production'), 'p-1');
    await write(secret(projectId, 'URL', 'staging'), `db://\${${other}.production.PASSWORD}`);
    await write(secret(projectId, 'DATABASE', 'development'), `\${staging.URL}`);
    return { owner, projectId, other, write };
  };

  it('moves the export’s tag when a referenced secret changes in another environment or project, 304 until then', async () => {
    const { owner, projectId, other, write } = await referring();
    const first = await get(owner.session, exported(projectId));
    expect(first.body.data.DATABASE).toBe('db://p-1');
    const tag = tagOf(first);
    const readsBefore = await reads(other, owner.session);
    expect((await get(owner.session, exported(projectId), tag)).status).toBe(304);
    expect(await reads(other, owner.session)).toBe(readsBefore);

    await write(secret(projectId, 'URL', 'staging'), `db2://\${${other}.production.PASSWORD}`);
    const second = await get(owner.session, exported(projectId), tag);
    expect(second.body.data.DATABASE).toBe('db2://p-1');
    expect(tagOf(second)).not.toBe(tag);

    // Two levels away, in another project.
    await write(secret(other, 'PASSWORD', 'production'), 'p-2');
    const third = await get(owner.session, exported(projectId), tagOf(second));
    expect(third.body.data.DATABASE).toBe('db2://p-2');
    expect(tagOf(third)).not.toBe(tagOf(second));
  });

  it('keeps the list’s tag, which answers names only, when a referenced secret changes', async () => {
    const { owner, projectId, other, write } = await referring();
    const tag = tagOf(await get(owner.session, list(projectId)));
    await write(secret(other, 'PASSWORD', 'production'), 'p-2');
    expect((await get(owner.session, list(projectId), tag)).status).toBe(304);
  });
});

describe('the deleted list', () => {
  it('answers its own ETag, which a delete moves', async () => {
    const { owner, projectId } = await projectWithSecret();
    const deletedList = `${list(projectId)}?deleted=true`;
    const before = tagOf(await get(owner.session, deletedList));
    expect(before).not.toBe(tagOf(await get(owner.session, list(projectId))));
    expect((await get(owner.session, deletedList, before)).status).toBe(304);

    await arrange(service, 'DELETE', secret(projectId, 'API_KEY'), { token: owner.session });

    const after = await get(owner.session, deletedList, before);
    expect(tagOf(after)).not.toBe(before);
    expect(after.body.data.map((entry: { name: string }) => entry.name)).toEqual(['API_KEY']);
  });
});
