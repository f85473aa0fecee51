import { ErrorText } from '@contract/errors';
import type { LocalService } from '../../local/service';
import { arrange, call, createProject, createToken, signedIn, startService } from './harness';

/**
 * References in values (issue 34 §1), black box against `npm start`: reads and exports answer values
 * resolved, each referenced secret's read recorded in its own project's trail and held to the caller's
 * access and the token's limits; `?raw=true` answers them as stored; a reference that cannot be
 * resolved is a 409 that names the secret and the reference, never a value, and records nothing.
 */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const project = (projectId: string) => `/api/v1/projects/${projectId}`;
const base = (projectId: string, environment: string) => `${project(projectId)}/environments/${environment}`;
const secret = (projectId: string, environment: string, name: string) =>
  `${base(projectId, environment)}/secrets/${name}`;
const exported = (projectId: string, environment: string) => `${base(projectId, environment)}/export`;

const put = async (token: string, projectId: string, environment: string, name: string, value: string) => {
  const reply = await arrange(service, 'PUT', secret(projectId, environment, name), { token, json: { value } });
  expect([200, 201]).toContain(reply.status);
  return reply.body.data.version as number;
};

/**
 * The `secret.read` events of a project's trail as `[environment, [name@version…]]`, by environment (the
 * events of one request share their instant, so the trail's order among them is not theirs).
 */
const readsIn = async (projectId: string, token: string) => {
  const reply = await call(service, 'GET', `${project(projectId)}/audit-events?type=secret.read&limit=100`, { token });
  expect(reply.status).toBe(200);
  type Read = { details: { environment: string; secrets: { name: string; version: number }[] } };
  return (reply.body.data as Read[])
    .map(({ details }) => [details.environment, details.secrets.map(({ name, version }) => `${name}@${version}`)])
    .sort(([a], [b]) => String(a).localeCompare(String(b)));
};

/** An owner with two projects: `other` holds production's DB_PASSWORD, `projectId` refers to it. */
const twoProjects = async () => {
  const owner = await signedIn(service, 'owner');
  const projectId = await createProject(service, owner.session, 'App');
  const other = await createProject(service, owner.session, 'Shared');
  await put(owner.session, other, 'production', 'DB_PASSWORD', 'hunter2');
  await put(owner.session, projectId, 'staging', 'DB_HOST', 'db.internal');
  await put(
    owner.session,
    projectId,
    'staging',
    'DB_URL',
    `postgres://app:\${${other}.production.DB_PASSWORD}@\${DB_HOST}`,
  );
  await put(owner.session, projectId, 'development', 'PORT', '5432');
  return { owner, projectId, other };
};

describe('GET a secret with references', () => {
  it('answers the value resolved through every form and level, and records each environment’s read in its trail', async () => {
    const { owner, projectId, other } = await twoProjects();
    await put(
      owner.session,
      projectId,
      'development',
      'DATABASE',
      '${staging.DB_URL}:${PORT} $${literal} ${not closed',
    );

    const reply = await call(service, 'GET', secret(projectId, 'development', 'DATABASE'), { token: owner.session });

    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      name: 'DATABASE',
      value: 'postgres://app:hunter2@db.internal:5432 ${literal} ${not closed',
      version: 1,
    });
    expect(await readsIn(projectId, owner.session)).toEqual([
      ['development', ['DATABASE@1', 'PORT@1']],
      ['staging', ['DB_HOST@1', 'DB_URL@1']],
    ]);
    expect(await readsIn(other, owner.session)).toEqual([['production', ['DB_PASSWORD@1']]]);
  });

  it('answers the value as stored with raw=true, reading and recording nothing else', async () => {
    const { owner, projectId, other } = await twoProjects();

    const reply = await call(service, 'GET', `${secret(projectId, 'staging', 'DB_URL')}?raw=true`, {
      token: owner.session,
    });

    expect(reply.status).toBe(200);
    expect(reply.body.data.value).toBe(`postgres://app:\${${other}.production.DB_PASSWORD}@\${DB_HOST}`);
    expect(await readsIn(projectId, owner.session)).toEqual([['staging', ['DB_URL@1']]]);
    expect(await readsIn(other, owner.session)).toEqual([]);
  });

  it('resolves an earlier version’s references against the current values', async () => {
    const { owner, projectId } = await twoProjects();
    await put(owner.session, projectId, 'development', 'URL', 'old:${PORT}');
    await put(owner.session, projectId, 'development', 'URL', 'new');
    await put(owner.session, projectId, 'development', 'PORT', '6543');

    const reply = await call(service, 'GET', `${secret(projectId, 'development', 'URL')}?version=1`, {
      token: owner.session,
    });

    expect([reply.status, reply.body.data?.value]).toEqual([200, 'old:6543']);
  });

  it('refuses with 409 a reference to a missing secret, or one the caller may not read, alike, and records nothing', async () => {
    const { owner, projectId, other } = await twoProjects();
    const member = await signedIn(service, 'member');
    const added = await arrange(service, 'POST', `${project(projectId)}/members`, {
      token: owner.session,
      json: { email: member.email, role: 'member' },
    });
    expect(added.status).toBe(200);
    const lowered = await arrange(
      service,
      'PUT',
      `${project(projectId)}/members/${encodeURIComponent(member.email)}/access`,
      {
        token: owner.session,
        json: { access: { staging: 'none' } },
      },
    );
    expect(lowered.status).toBe(200);
    await put(owner.session, projectId, 'development', 'HIDDEN', 'x${staging.DB_HOST}');
    await put(owner.session, projectId, 'development', 'MISSING', 'x${staging.NO_SUCH}');
    await put(owner.session, projectId, 'development', 'ELSEWHERE', `x\${${other}.production.DB_PASSWORD}`);

    const cases = [
      [owner.session, 'MISSING', '${staging.NO_SUCH}'],
      [member.session, 'HIDDEN', '${staging.DB_HOST}'],
      [member.session, 'MISSING', '${staging.NO_SUCH}'],
      [member.session, 'ELSEWHERE', `\${${other}.production.DB_PASSWORD}`],
    ] as const;
    for (const [token, name, reference] of cases) {
      const reply = await call(service, 'GET', secret(projectId, 'development', name), { token });
      expect([name, reply.status, reply.body]).toEqual([
        name,
        409,
        {
          success: false,
          error: ErrorText.referenceUnresolved,
          details: [{ path: name, message: `${reference} names no secret this caller can read` }],
        },
      ]);
    }
    expect(await readsIn(projectId, owner.session)).toEqual([]);
    expect(await readsIn(other, owner.session)).toEqual([]);
  });

  it('refuses a cycle and references nested more than 5 deep, and resolves 5', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await put(owner.session, projectId, 'development', 'A', '${staging.B}');
    await put(owner.session, projectId, 'staging', 'B', '${development.A}');
    for (let level = 0; level < 7; level += 1) {
      await put(owner.session, projectId, 'production', `L${level}`, level === 6 ? 'end' : `\${L${level + 1}}`);
    }
    const get = (environment: string, name: string) =>
      call(service, 'GET', secret(projectId, environment, name), { token: owner.session });

    const cycle = await get('development', 'A');
    expect([cycle.status, cycle.body.details]).toEqual([
      409,
      [{ path: 'A', message: '${staging.B} leads back to a secret it is part of' }],
    ]);
    const deep = await get('production', 'L0');
    expect([deep.status, deep.body.details]).toEqual([
      409,
      [{ path: 'L0', message: '${L1} nests more than 5 references deep' }],
    ]);
    const five = await get('production', 'L1');
    expect([five.status, five.body.data?.value]).toEqual([200, 'end']);
  });

  it('holds references to a token’s limits: a token limited to one environment resolves none outside it', async () => {
    const { owner, projectId } = await twoProjects();
    const limited = await createToken(service, owner.session, {
      name: 'dev-only',
      scopes: ['read:secrets'],
      projects: [{ projectId, environments: ['staging'] }],
    });
    const whole = await createToken(service, owner.session, {
      name: 'project',
      scopes: ['read:secrets'],
      projects: [{ projectId }],
    });

    const hostOnly = await call(service, 'GET', secret(projectId, 'staging', 'DB_HOST'), { token: limited.rawToken });
    expect(hostOnly.status).toBe(200);
    for (const token of [limited.rawToken, whole.rawToken]) {
      // DB_URL reaches another project, which neither token lists.
      const reply = await call(service, 'GET', secret(projectId, 'staging', 'DB_URL'), { token });
      expect([reply.status, reply.body.error]).toEqual([409, ErrorText.referenceUnresolved]);
    }
    await put(owner.session, projectId, 'staging', 'PORTED', '${development.PORT}');
    const outside = await call(service, 'GET', secret(projectId, 'staging', 'PORTED'), { token: limited.rawToken });
    expect([outside.status, outside.body.details]).toEqual([
      409,
      [{ path: 'PORTED', message: '${development.PORT} names no secret this caller can read' }],
    ]);
    const inside = await call(service, 'GET', secret(projectId, 'staging', 'PORTED'), { token: whole.rawToken });
    expect([inside.status, inside.body.data?.value]).toEqual([200, '5432']);
  });
});

describe('GET an export with references', () => {
  it('answers every value resolved, or as stored with raw=true', async () => {
    const { owner, projectId, other } = await twoProjects();

    const resolved = await call(service, 'GET', exported(projectId, 'staging'), { token: owner.session });
    expect([resolved.status, resolved.body.data]).toEqual([
      200,
      { DB_HOST: 'db.internal', DB_URL: 'postgres://app:hunter2@db.internal' },
    ]);
    expect(await readsIn(other, owner.session)).toEqual([['production', ['DB_PASSWORD@1']]]);

    const raw = await call(service, 'GET', `${exported(projectId, 'staging')}?raw=true`, { token: owner.session });
    expect([raw.status, raw.body.data.DB_URL]).toEqual([
      200,
      `postgres://app:\${${other}.production.DB_PASSWORD}@\${DB_HOST}`,
    ]);
    expect(raw.headers.etag).not.toBe(resolved.headers.etag);
    expect(await readsIn(other, owner.session)).toEqual([['production', ['DB_PASSWORD@1']]]);
  });

  it('refuses the whole export with 409 when one value cannot be resolved, naming each such secret', async () => {
    const owner = await signedIn(service, 'owner');
    const projectId = await createProject(service, owner.session);
    await put(owner.session, projectId, 'development', 'GOOD', 'plain');
    await put(owner.session, projectId, 'development', 'BAD', '${NOWHERE}');
    await put(owner.session, projectId, 'development', 'SELF', '${SELF}');

    const reply = await call(service, 'GET', exported(projectId, 'development'), { token: owner.session });

    expect([reply.status, reply.body.error, reply.body.details]).toEqual([
      409,
      ErrorText.referenceUnresolved,
      [
        { path: 'BAD', message: '${NOWHERE} names no secret this caller can read' },
        { path: 'SELF', message: '${SELF} leads back to a secret it is part of' },
      ],
    ]);
    expect(reply.text).not.toContain('plain');
    expect(await readsIn(projectId, owner.session)).toEqual([]);
  });
});
