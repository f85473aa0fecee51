import { randomUUID } from 'node:crypto';
import { ErrorText } from '@contract/errors';
import { call, uniqueEmail } from './harness';
import { type MockIdp, startMockIdp } from './mock-idp';
import { type NpmService, runScript, startNpmService } from './npm-start';

/**
 * Offboarding stops people, not only their tokens, and an address follows its holder's newest
 * session: black-box against `npm start` trusting a third-party OpenID Connect provider, whose
 * sessions the test signs with chosen issue times, and `npm run offboard` against the same table.
 */

const TEST_MS = 180_000;
const TABLE_NAME = `offboarding-${randomUUID().slice(0, 8)}`;

let idp: MockIdp;
let service: NpmService;
beforeAll(async () => {
  idp = await startMockIdp();
  service = await startNpmService({ SESSION_ISSUER: idp.issuer, SESSION_AUDIENCE: idp.audience, TABLE_NAME });
}, TEST_MS);
afterAll(async () => {
  await service?.stop();
  await idp?.stop();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A verified ID token of `sub` for `email`, issued `ageSeconds` ago. */
const sessionOf = (sub: string, email: string, ageSeconds = 60) =>
  idp.sign({ sub, email, email_verified: true, iat: nowSeconds() - ageSeconds });

const offboard = (who: string) =>
  runScript('offboard', [who], { DYNAMODB_ENDPOINT: process.env.TEST_DYNAMODB_ENDPOINT, TABLE_NAME });

const expectUnauthorized = (reply: Awaited<ReturnType<typeof call>>, what: string) => {
  expect({ what, status: reply.status, body: reply.body }).toEqual({
    what,
    status: 401,
    body: { success: false, error: ErrorText.unauthorized },
  });
};

const createProject = async (session: string, name: string): Promise<string> => {
  const reply = await call(service, 'POST', '/api/v1/projects', { token: session, json: { name } });
  expect(reply.status).toBe(201);
  return reply.body.data.projectId;
};

const addMember = (session: string, projectId: string, email: string, role = 'member') =>
  call(service, 'POST', `/api/v1/projects/${projectId}/members`, { token: session, json: { email, role } });

const memberIds = async (session: string, projectId: string): Promise<string[]> => {
  const reply = await call(service, 'GET', `/api/v1/projects/${projectId}/members`, { token: session });
  expect(reply.status).toBe(200);
  return reply.body.data.map((member: { userId: string }) => member.userId);
};

describe('offboarding stops sessions', () => {
  it(
    'answers the generic 401 on every route to a session issued before the mark, and a second run exits 0',
    async () => {
      const leaver = { sub: `leaver-${randomUUID()}`, email: uniqueEmail('leaver') };
      const owner = await sessionOf(`owner-${randomUUID()}`, uniqueEmail('owner'));
      const accomplice = uniqueEmail('accomplice');
      await call(service, 'GET', '/api/v1/me', { token: await sessionOf(`acc-${randomUUID()}`, accomplice) });
      const session = await sessionOf(leaver.sub, leaver.email);
      // Issued before the mark, never used until after it.
      const unused = await sessionOf(leaver.sub, leaver.email, 30);
      const owned = await createProject(session, 'Owned');
      const joined = await createProject(owner, 'Joined');
      expect((await addMember(owner, joined, leaver.email, 'admin')).status).toBe(200);

      const first = await offboard(leaver.email);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(`Offboarded user ${leaver.sub} (${leaver.email})`);

      for (const candidate of [session, unused]) {
        expectUnauthorized(await call(service, 'GET', '/api/v1/me', { token: candidate }), 'GET /me');
        expectUnauthorized(
          await call(service, 'POST', '/api/v1/projects', { token: candidate, json: { name: 'Later' } }),
          'POST /projects',
        );
        expectUnauthorized(await addMember(candidate, owned, accomplice, 'admin'), 'POST members');
        expectUnauthorized(
          await call(service, 'DELETE', `/api/v1/projects/${joined}/members/${encodeURIComponent(accomplice)}`, {
            token: candidate,
          }),
          'DELETE member',
        );
        expectUnauthorized(await call(service, 'GET', '/api/v1/audit-events', { token: candidate }), 'own trail');
        expectUnauthorized(
          await call(service, 'GET', `/api/v1/projects/${owned}/audit-events`, { token: candidate }),
          'project trail',
        );
        expectUnauthorized(await call(service, 'GET', '/api/v1/tokens', { token: candidate }), 'GET /tokens');
      }
      // The unused session never recorded the profile again: the address still finds nobody.
      expect((await addMember(owner, joined, leaver.email)).body).toEqual({
        success: false,
        error: ErrorText.userNotFound,
      });
      expect(await memberIds(owner, joined)).not.toContain(leaver.sub);

      const second = await offboard(leaver.email);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(`User ${leaver.sub} (${leaver.email}) was already offboarded`);
      expect(second.stdout).toContain('tokens revoked: none');
      expect(second.stdout).toContain('removed from projects: none');
    },
    TEST_MS,
  );

  it(
    'refuses a session of a user offboarded by id before they ever signed in',
    async () => {
      const sub = `never-${randomUUID()}`;
      const session = await sessionOf(sub, uniqueEmail('never'));
      expect((await offboard(sub)).code).toBe(0);
      expectUnauthorized(await call(service, 'GET', '/api/v1/me', { token: session }), 'GET /me');
    },
    TEST_MS,
  );
});

describe('an address follows its holder’s newest session', () => {
  it(
    'is not taken back by a replayed older session of its previous holder',
    async () => {
      const address = uniqueEmail('shared');
      const previous = `previous-${randomUUID()}`;
      const holder = `holder-${randomUUID()}`;
      const old = await sessionOf(previous, address, 600);
      expect((await call(service, 'GET', '/api/v1/me', { token: old })).status).toBe(200);
      // The previous holder moves to another address; the address goes to someone else.
      await call(service, 'GET', '/api/v1/me', { token: await sessionOf(previous, uniqueEmail('moved'), 300) });
      expect((await call(service, 'GET', '/api/v1/me', { token: await sessionOf(holder, address, 100) })).status).toBe(
        200,
      );

      // The old session is still valid at the provider and is replayed.
      expect((await call(service, 'GET', '/api/v1/me', { token: old })).status).toBe(200);

      const owner = await sessionOf(`owner-${randomUUID()}`, uniqueEmail('owner'));
      const project = await createProject(owner, 'Shared');
      expect((await addMember(owner, project, address)).status).toBe(200);
      expect(await memberIds(owner, project)).toContain(holder);
      expect(await memberIds(owner, project)).not.toContain(previous);
    },
    TEST_MS,
  );

  it(
    'is taken back at once by its holder’s newer session, though their profile is fresh',
    async () => {
      const address = uniqueEmail('contested');
      const first = `first-${randomUUID()}`;
      const second = `second-${randomUUID()}`;
      await call(service, 'GET', '/api/v1/me', { token: await sessionOf(first, address, 300) });
      await call(service, 'GET', '/api/v1/me', { token: await sessionOf(second, address, 200) });
      // The first user signs in again with the same address: their profile says it already.
      await call(service, 'GET', '/api/v1/me', { token: await sessionOf(first, address, 100) });

      const owner = await sessionOf(`owner-${randomUUID()}`, uniqueEmail('owner'));
      const project = await createProject(owner, 'Contested');
      expect((await addMember(owner, project, address)).status).toBe(200);
      expect(await memberIds(owner, project)).toContain(first);
      expect(await memberIds(owner, project)).not.toContain(second);
    },
    TEST_MS,
  );
});
