import { API_DOCUMENT_PATH, apiDocument, apiDocumentBody } from '@lib/api-document';
import type { LocalService } from '../../local/service';
import { call, startService } from './harness';

let service: LocalService;
let elsewhere: LocalService;

beforeAll(async () => {
  [service, elsewhere] = await Promise.all([
    startService(),
    startService({ dashboardOrigin: 'https://dashboard.example.com' }),
  ]);
});

afterAll(async () => {
  await Promise.all([service.close(), elsewhere.close()]);
});

describe('GET /api/v1/openapi.json', () => {
  it('serves the generated document with no authentication, byte for byte what the stack serves', async () => {
    const reply = await call(service, 'GET', API_DOCUMENT_PATH);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.text).toBe(apiDocumentBody(`${service.baseUrl}/`));
    expect(reply.body).toEqual({ ...apiDocument(), 'x-dashboard-url': `${service.baseUrl}/` });
  });

  it('says where the dashboard is: on its own origin, as npm start serves it, or at DASHBOARD_ORIGIN', async () => {
    const onLocalhost = await call(service, 'GET', API_DOCUMENT_PATH, {
      headers: [['Host', `localhost:${service.port}`]],
    });
    expect(onLocalhost.body['x-dashboard-url']).toBe(`http://localhost:${service.port}/`);
    const served = await call(elsewhere, 'GET', API_DOCUMENT_PATH);
    expect(served.body['x-dashboard-url']).toBe('https://dashboard.example.com/');
  });

  it('ignores a credential, and any other method is the gateway 404', async () => {
    expect((await call(service, 'GET', API_DOCUMENT_PATH, { token: 'garbage' })).status).toBe(200);
    const post = await call(service, 'POST', API_DOCUMENT_PATH, { json: {} });
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ success: false, error: 'Not found' });
  });
});
