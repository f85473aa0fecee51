import { CORS_MAX_AGE_SECONDS } from '@contract/cors';
import { ErrorText } from '@contract/errors';
import { methodsByPath } from '@contract/route-table';
import type { LocalService } from '../../local/service';
import { call, type Reply, samplePath, sessionFor, startService, uniqueEmail } from './harness';

/**
 * A web dashboard on another origin (`dashboardOrigin`): its preflights are answered on every route
 * path without a credential, and it may read every answer, the routes' and the gateway's own alike.
 */

const ORIGIN = 'https://dashboard.example.com';
const fromDashboard: [string, string][] = [['Origin', ORIGIN]];

let service: LocalService;

beforeAll(async () => {
  service = await startService({ dashboardOrigin: ORIGIN });
});
afterAll(async () => {
  await service.close();
});

const expectReadable = (reply: Reply) => {
  expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
  expect(reply.headers['access-control-expose-headers']).toBe('Retry-After, ETag');
};

describe('cross-origin access for the dashboard', () => {
  it.each([...methodsByPath])('answers the preflight of %s', async (path, methods) => {
    for (const method of methods) {
      const reply = await call(service, 'OPTIONS', samplePath(path), {
        headers: [
          ...fromDashboard,
          ['Access-Control-Request-Method', method],
          ['Access-Control-Request-Headers', 'authorization,content-type,if-none-match'],
        ],
      });
      expect(reply.status).toBe(204);
      expectReadable(reply);
      expect(String(reply.headers['access-control-allow-methods']).split(', ')).toEqual([...methods, 'OPTIONS']);
      expect(reply.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, If-None-Match');
      expect(reply.headers['access-control-max-age']).toBe(String(CORS_MAX_AGE_SECONDS));
      expect(reply.text).toBe('');
    }
  });

  it('lets the dashboard read the answers of the routes, refusals included', async () => {
    const session = await sessionFor(service, uniqueEmail('cors'));
    const listed = await call(service, 'GET', '/api/v1/tokens', { token: session, headers: fromDashboard });
    expect(listed.status).toBe(200);
    expectReadable(listed);

    const invalid = await call(service, 'POST', '/api/v1/tokens', { token: session, json: {}, headers: fromDashboard });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: ErrorText.validation });
    expectReadable(invalid);
  });

  it('lets the dashboard read the API document', async () => {
    const document = await call(service, 'GET', '/api/v1/openapi.json', { headers: fromDashboard });
    expect(document.status).toBe(200);
    expectReadable(document);
  });

  it('lets the dashboard read the gateway’s own answers', async () => {
    const anonymous = await call(service, 'GET', '/api/v1/tokens', { headers: fromDashboard });
    expect(anonymous.status).toBe(401);
    expectReadable(anonymous);

    const unknown = await call(service, 'GET', '/api/v1/nothing-here', { headers: fromDashboard });
    expect(unknown.status).toBe(404);
    expectReadable(unknown);

    const preflightElsewhere = await call(service, 'OPTIONS', '/api/v1/nothing-here', { headers: fromDashboard });
    expect(preflightElsewhere.status).toBe(404);
    expectReadable(preflightElsewhere);
  });
});
