import { methodsByPath } from '@contract/route-table';
import type { LocalService } from '../../local/service';
import { call, samplePath, sessionFor, startService, uniqueEmail } from './harness';

/** Without `dashboardOrigin` the API answers no preflight and grants no other origin anything. */

let service: LocalService;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

describe('without a dashboard origin', () => {
  it('answers a preflight as an unknown method, with no cross-origin header', async () => {
    for (const path of methodsByPath.keys()) {
      const reply = await call(service, 'OPTIONS', samplePath(path), {
        headers: [
          ['Origin', 'https://dashboard.example.com'],
          ['Access-Control-Request-Method', 'GET'],
        ],
      });
      expect(reply.status).toBe(404);
      expect(Object.keys(reply.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('adds no cross-origin header to an answer', async () => {
    const session = await sessionFor(service, uniqueEmail('no-cors'));
    const reply = await call(service, 'GET', '/api/v1/tokens', {
      token: session,
      headers: [['Origin', 'https://dashboard.example.com']],
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});
