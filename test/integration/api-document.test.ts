import { API_DOCUMENT_PATH, apiDocument, apiDocumentBody } from '@lib/api-document';
import type { LocalService } from '../../local/service';
import { call, startService } from './harness';

let service: LocalService;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service.close();
});

describe('GET /api/v1/openapi.json', () => {
  it('serves the generated document with no authentication, byte for byte what the stack serves', async () => {
    const reply = await call(service, 'GET', API_DOCUMENT_PATH);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.text).toBe(apiDocumentBody());
    expect(reply.body).toEqual(apiDocument());
  });

  it('ignores a credential, and any other method is the gateway 404', async () => {
    expect((await call(service, 'GET', API_DOCUMENT_PATH, { token: 'garbage' })).status).toBe(200);
    const post = await call(service, 'POST', API_DOCUMENT_PATH, { json: {} });
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ success: false, error: 'Not found' });
  });
});
