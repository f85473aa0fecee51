import { API_DOCUMENT_PATH } from '@lib/api-document';
import type { LocalService } from '../../local/service';
import { call, sessionFor, startService, uniqueEmail } from './harness';

/**
 * No answer of the API may be kept by a browser or a cache on the way: one holds a raw token, others
 * hold who belongs where (and secrets, later). A sample of every kind of answer: a route's success
 * and its refusals, the authorizer's 401 and 403, the gateway's 404 and the API document.
 */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

describe('Cache-Control', () => {
  it('is no-store on every kind of answer, the one holding a raw token first', async () => {
    const session = await sessionFor(service, uniqueEmail('cache'));
    const created = await call(service, 'POST', '/api/v1/tokens', {
      token: session,
      json: { name: 'ci', scopes: ['admin'] },
    });
    const raw = created.body.data.rawToken as string;
    const replies = {
      'created with rawToken': created,
      'a list': await call(service, 'GET', '/api/v1/tokens', { token: raw }),
      'a validation error': await call(service, 'POST', '/api/v1/projects', { token: session, json: { name: '' } }),
      'a route 404': await call(service, 'GET', '/api/v1/projects/prj_AAAAAAAAAAAAAAAA/members', { token: session }),
      'a 401 without credential': await call(service, 'GET', '/api/v1/tokens'),
      "the authorizer's 401": await call(service, 'GET', '/api/v1/tokens', { token: 'svc_live_nope' }),
      "the authorizer's 403": await call(service, 'POST', '/api/v1/tokens', {
        token: raw,
        json: { name: 'x', scopes: ['admin'] },
      }),
      'a 403 from another address': await call(service, 'GET', '/api/v1/tokens', { token: raw, from: '127.0.0.2' }),
      'an unknown path': await call(service, 'GET', '/api/v1/nothing-here', { token: session }),
      'an unknown method': await call(service, 'PUT', '/api/v1/tokens', { token: session }),
      'the API document': await call(service, 'GET', API_DOCUMENT_PATH),
    };
    expect(Object.values(replies).map((reply) => reply.status)).toEqual([
      201, 200, 400, 404, 401, 401, 403, 403, 404, 404, 200,
    ]);
    for (const [answer, reply] of Object.entries(replies)) {
      expect([answer, reply.headers['cache-control']]).toEqual([answer, 'no-store']);
    }
  });
});
