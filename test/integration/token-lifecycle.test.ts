import { call, uniqueEmail } from './harness';
import { type NpmService, startNpmService } from './npm-start';

/**
 * The token lifecycle beyond SPEC.md, black box against `npm start` (which sees the TCP peer, so
 * 127.0.0.1 and ::1 are two callers): the list shows where a token was last used from.
 */

let service: NpmService;
beforeAll(async () => {
  service = await startNpmService();
});
afterAll(() => service?.stop());

const session = async (): Promise<string> =>
  (await call(service, 'POST', '/_dev/idp/token', { json: { email: uniqueEmail('lifecycle') } })).body.token;

const listed = async (token: string, id: string) =>
  ((await call(service, 'GET', '/api/v1/tokens', { token })).body.data as Record<string, unknown>[]).find(
    (entry) => entry.id === id,
  );

describe('last used, and from where', () => {
  it('shows no address before the first use, then the address of the use beside its time', async () => {
    const owner = await session();
    for (const host of ['127.0.0.1', '::1']) {
      const created = await call(service, 'POST', '/api/v1/tokens', {
        token: owner,
        host,
        json: { name: `from ${host}`, scopes: ['admin'] },
      });
      const { id, rawToken } = created.body.data as { id: string; rawToken: string };
      expect(await listed(owner, id)).toMatchObject({ lastUsedAt: null, lastUsedIp: null });
      expect((await call(service, 'GET', '/api/v1/projects', { token: rawToken, host })).status).toBe(200);
      expect(await listed(owner, id)).toMatchObject({ lastUsedAt: expect.any(String), lastUsedIp: host });
    }
  });
});
