import { ErrorText } from '@contract/errors';
import { type RouteContract, routes, SAMPLE_WORLD } from '@contract/routes';
import type { LocalService } from '../../local/service';
import { call, createProject, createToken, sessionFor, startService, uniqueEmail } from './harness';

/** Tokens limited to projects and environments, black box against `npm start`. */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const REFUSED = { success: false, error: ErrorText.tokenResource };

/** A signed-in user with two projects of their own. */
const ownerWithProjects = async () => {
  const session = await sessionFor(service, uniqueEmail('owner'));
  const mine = await createProject(service, session, 'Mine');
  const other = await createProject(service, session, 'Other');
  return { session, mine, other };
};

const environmentPath = (projectId: string, name: string) => `/api/v1/projects/${projectId}/environments/${name}`;

describe('POST /api/v1/tokens with projects', () => {
  it('stores the projects, lists them, and keeps them on rotation', async () => {
    const { session, mine, other } = await ownerWithProjects();
    const projects = [{ projectId: mine }, { projectId: other, environments: ['staging'] }];
    const shown = [
      { projectId: mine, environments: null },
      { projectId: other, environments: ['staging'] },
    ];
    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'limited', scopes: ['admin'], projects },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.projects).toEqual(shown);

    const listed = await call(service, 'GET', '/api/v1/tokens', { token: session });
    const entry = listed.body.data.find((token: { id: string }) => token.id === created.body.data.id);
    expect(entry.projects).toEqual(shown);

    const rotated = await call(service, 'POST', `/api/v1/tokens/${created.body.data.id}/rotate`, {
      token: session,
      json: { graceHours: 0 },
    });
    expect(rotated.status).toBe(201);
    expect(rotated.body.data.projects).toEqual(shown);
    const again = await call(service, 'GET', '/api/v1/tokens', { token: session });
    const replacement = again.body.data.find((token: { id: string }) => token.id === rotated.body.data.id);
    expect(replacement.projects).toEqual(shown);
    // The replacement is limited as well, not only shown so.
    const outside = await call(service, 'GET', '/api/v1/projects', { token: rotated.body.data.rawToken });
    expect([outside.status, outside.body]).toEqual([403, REFUSED]);
  });

  it('answers projects null for a token created without them', async () => {
    const session = await sessionFor(service, uniqueEmail());
    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'free', scopes: ['admin'] },
    });
    expect(created.body.data.projects).toBeNull();
  });

  it('answers 404 Project not found for a project the caller is not a member of, and creates nothing', async () => {
    const { session, mine } = await ownerWithProjects();
    const stranger = await sessionFor(service, uniqueEmail('stranger'));
    const strangers = await createProject(service, stranger, 'Theirs');
    const refused = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'x', scopes: ['admin'], projects: [{ projectId: mine }, { projectId: strangers }] },
    });
    expect([refused.status, refused.body]).toEqual([404, { success: false, error: ErrorText.projectNotFound }]);
    const listed = await call(service, 'GET', '/api/v1/tokens', { token: session });
    expect(listed.body.data).toEqual([]);
  });

  it.each([
    [
      'eleven projects',
      Array.from({ length: 11 }, (_, index) => ({ projectId: `prj_${String(index).padStart(20, '0')}` })),
      'projects',
      'List at most 10 projects',
    ],
    ['no project', [], 'projects', 'List at least one project, or leave projects out for all of yours'],
    ['a repeated project', 'repeat', 'projects', 'Name each project once'],
    [
      'an empty environments list',
      'empty-environments',
      'projects.0.environments',
      'List at least one environment, or leave environments out for all of them',
    ],
    [
      'a bad environment name',
      'bad-environment',
      'projects.0.environments.0',
      'Use 1 to 32 characters of a-z, 0-9 and -, starting and ending with a letter or a digit',
    ],
    ['a repeated environment', 'repeat-environment', 'projects.0.environments', 'Name each environment once'],
    ['a malformed project id', [{ projectId: 'nope' }], 'projects.0.projectId', 'Not a project id'],
  ])('refuses %s with 400 and a detail', async (_label, projects, path, message) => {
    const { session, mine } = await ownerWithProjects();
    const body =
      projects === 'repeat'
        ? [{ projectId: mine }, { projectId: mine }]
        : projects === 'empty-environments'
          ? [{ projectId: mine, environments: [] }]
          : projects === 'bad-environment'
            ? [{ projectId: mine, environments: ['Prod!'] }]
            : projects === 'repeat-environment'
              ? [{ projectId: mine, environments: ['staging', 'staging'] }]
              : projects;
    const refused = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'x', scopes: ['admin'], projects: body },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ success: false, error: ErrorText.validation, details: [{ path, message }] });
  });
});

describe('a token limited to projects', () => {
  it('reaches its project’s routes and is refused everywhere else with 403', async () => {
    const { session, mine, other } = await ownerWithProjects();
    const token = await createToken(service, session, {
      name: 'l',
      scopes: ['admin'],
      projects: [{ projectId: mine }],
    });

    const members = await call(service, 'GET', `/api/v1/projects/${mine}/members`, { token: token.rawToken });
    expect(members.status).toBe(200);
    const environments = await call(service, 'GET', `/api/v1/projects/${mine}/environments`, {
      token: token.rawToken,
    });
    expect(environments.status).toBe(200);

    for (const path of [
      `/api/v1/projects/${other}/members`,
      `/api/v1/projects/${other}/environments`,
      '/api/v1/tokens',
      '/api/v1/projects',
      '/api/v1/audit-events',
    ]) {
      const refused = await call(service, 'GET', path, { token: token.rawToken });
      expect([path, refused.status, refused.body]).toEqual([path, 403, REFUSED]);
    }
  });

  it('limited to environments, is refused on every route of the project as a whole, and changes nothing', async () => {
    const { session, mine } = await ownerWithProjects();
    const token = await createToken(service, session, {
      name: 'l',
      scopes: ['read:secrets', 'write:secrets', 'admin'],
      projects: [{ projectId: mine, environments: ['development'] }],
    });
    const stranger = uniqueEmail('stranger');
    await sessionFor(service, stranger);
    // A route for sessions only refuses every token before its limits (the session-only error).
    const projectRoutes = routes.filter(
      (route) =>
        route.path.startsWith('/api/v1/projects/{projectId}') &&
        !route.path.includes('{environment}/') &&
        route.tokenScope !== null,
    );
    expect(projectRoutes.map((route) => route.handler).sort()).toEqual(
      expect.arrayContaining([
        'add-member',
        'delete-environment',
        'leave-project',
        'list-members',
        'list-project-audit-events',
      ]),
    );
    for (const route of projectRoutes) {
      const sample = route.sample(SAMPLE_WORLD);
      const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
        name === 'projectId' ? mine : name === 'environment' ? 'development' : encodeURIComponent(stranger),
      );
      const json = route.handler === 'add-member' ? { email: stranger, role: 'admin' } : sample.body;
      const refused = await call(service, route.method, path, { token: token.rawToken, json });
      expect([route.handler, refused.status, refused.body]).toEqual([route.handler, 403, REFUSED]);
    }
    // The same routes are the project's own for a token listing the project without environments.
    const whole = await createToken(service, session, {
      name: 'w',
      scopes: ['admin'],
      projects: [{ projectId: mine }],
    });
    const members = await call(service, 'GET', `/api/v1/projects/${mine}/members`, { token: whole.rawToken });
    expect(members.status).toBe(200);
    expect(members.body.data.map((member: { email: string }) => member.email)).not.toContain(stranger);
    const kept = await call(service, 'GET', `/api/v1/projects/${mine}/environments`, { token: session });
    expect(kept.body.data.map((entry: { name: string }) => entry.name)).toContain('development');
  });

  it('reaches every environment of a project listed without environments', async () => {
    const { session, mine } = await ownerWithProjects();
    const token = await createToken(service, session, {
      name: 'l',
      scopes: ['admin'],
      projects: [{ projectId: mine }],
    });
    const deleted = await call(service, 'DELETE', environmentPath(mine, 'development'), { token: token.rawToken });
    expect([200, 409]).toContain(deleted.status);
  });

  it('answers the scope error first when the token also lacks the route’s scope', async () => {
    const { session, mine, other } = await ownerWithProjects();
    const token = await createToken(service, session, {
      name: 'l',
      scopes: ['read:secrets'],
      projects: [{ projectId: mine }],
    });
    const refused = await call(service, 'POST', `/api/v1/projects/${other}/environments`, {
      token: token.rawToken,
      json: { name: 'qa' },
    });
    expect([refused.status, refused.body]).toEqual([403, { success: false, error: ErrorText.scope }]);
  });

  it('records a refusal as token.denied with reason resource in its owner’s trail', async () => {
    const { session, other, mine } = await ownerWithProjects();
    const token = await createToken(service, session, {
      name: 'l',
      scopes: ['admin'],
      projects: [{ projectId: mine }],
    });
    await call(service, 'GET', `/api/v1/projects/${other}/members`, { token: token.rawToken });
    const trail = await call(service, 'GET', '/api/v1/audit-events?type=token.denied', { token: session });
    expect(trail.status).toBe(200);
    expect(trail.body.data).toEqual([
      expect.objectContaining({ type: 'token.denied', details: expect.objectContaining({ reason: 'resource' }) }),
    ]);
  });
});

describe('a limited token on every secret route', () => {
  // A route for sessions only (approving, rejecting, applying a change request) refuses every token
  // before its limits.
  const secretRoutes = routes.filter((route) => route.path.includes('{environment}/') && route.tokenScope !== null);

  /** The route's path in a project and environment, with its sample's other parameters. */
  const pathOf = (route: RouteContract, projectId: string, environment: string) =>
    route.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
      name === 'projectId'
        ? projectId
        : name === 'environment'
          ? environment
          : (route.sample(SAMPLE_WORLD).params?.[name] ?? ''),
    );

  it('reaches its listed environment only, refusing the others and other projects with 403 before any work', async () => {
    const { session, mine, other } = await ownerWithProjects();
    const token = await createToken(service, session, {
      name: 'limited',
      scopes: ['read:secrets', 'write:secrets', 'admin'],
      projects: [{ projectId: mine, environments: ['development'] }],
    });
    for (const project of [mine, other]) {
      for (const environment of ['development', 'staging']) {
        const write = await call(
          service,
          'PUT',
          `/api/v1/projects/${project}/environments/${environment}/secrets/DATABASE_URL`,
          {
            token: session,
            json: { value: 'seed' },
          },
        );
        expect(write.status).toBe(201);
      }
    }
    expect(secretRoutes.length).toBeGreaterThanOrEqual(8);
    for (const route of secretRoutes) {
      const sample = route.sample(SAMPLE_WORLD);
      const send = (projectId: string, environment: string) =>
        call(service, route.method, pathOf(route, projectId, environment), {
          token: token.rawToken,
          ...(sample.body !== undefined && { json: sample.body }),
        });
      for (const [projectId, environment] of [
        [mine, 'staging'],
        [other, 'development'],
        [other, 'staging'],
      ] as const) {
        const refused = await send(projectId, environment);
        expect([route.handler, projectId === mine, environment, refused.status, refused.body]).toEqual([
          route.handler,
          projectId === mine,
          environment,
          403,
          REFUSED,
        ]);
      }
      // Reached: the route's own answer (a change request's routes find no request of the sample's id here).
      const allowed = await send(mine, 'development');
      const own = route.path.includes('{id}') ? ErrorText.changeRequestNotFound : true;
      expect([route.handler, allowed.status < 300 || allowed.body.error]).toEqual([route.handler, own]);
    }
  });
});
