import { randomUUID } from 'node:crypto';
import { ErrorText } from '@contract/errors';
import { decodeJwt } from 'jose';
import { createTable } from '../../local/create-table';
import type { LocalService } from '../../local/service';
import { call, createToken, seedTokens, sessionFor, startService, uniqueEmail, withPatientClient } from './harness';
import { scanTable } from './secret-scan';

/** Races that must end in the rules' verdicts. Own table, so a scan sees only this file's items. */

const endpoint = process.env.TEST_DYNAMODB_ENDPOINT ?? '';
const tableName = `concurrency-${randomUUID().slice(0, 8)}`;
let service: LocalService;

beforeAll(async () => {
  await createTable(endpoint, tableName);
  service = await startService({ tableName });
});
afterAll(async () => {
  await service.close();
});

const scanAll = () => scanTable(endpoint, tableName);

describe('revoke racing with use', () => {
  it('refuses every request sent after the revoke response, while uses in flight end either way', async () => {
    const session = await sessionFor(service, uniqueEmail());
    for (let round = 0; round < 5; round += 1) {
      const token = await createToken(service, session);
      const inFlight = Array.from({ length: 10 }, () =>
        call(service, 'GET', '/api/v1/tokens', { token: token.rawToken }),
      );
      const revoked = await call(service, 'DELETE', `/api/v1/tokens/${token.id}`, { token: session });
      expect(revoked.status).toBe(200);
      const after = await Promise.all(
        Array.from({ length: 5 }, () => call(service, 'GET', '/api/v1/tokens', { token: token.rawToken })),
      );
      for (const reply of after) expect(reply.body).toEqual({ success: false, error: ErrorText.unauthorized });
      for (const reply of await Promise.all(inFlight)) expect([200, 401]).toContain(reply.status);
    }
  });
});

describe('project creation', () => {
  it('never leaves a project without its owner, under 20 parallel creates, however busy the machine', async () => {
    const sessions = await Promise.all(Array.from({ length: 4 }, () => sessionFor(service, uniqueEmail())));
    // The client waits for DynamoDB Local as long as it takes, so that the creates race each other
    // rather than the SDK's timeout; one that still fails answers 503 (its transaction may have
    // committed): never anything else, and never half done.
    const replies = await withPatientClient(() =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(service, 'POST', '/api/v1/projects', { token: sessions[i % 4], json: { name: `p${i}` } }),
        ),
      ),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    expect(statuses).toContain(201);
    const items = await scanAll();
    const projects = items.filter((item) => item.entity === 'Project');
    const created = replies.filter((reply) => reply.status === 201).map((reply) => reply.body.data.projectId);
    expect(projects.map((project) => project.projectId)).toEqual(expect.arrayContaining(created));
    expect(projects.length).toBeLessThanOrEqual(20);
    for (const project of projects) {
      const owners = items.filter(
        (item) => item.entity === 'Member' && item.projectId === project.projectId && item.role === 'owner',
      );
      expect(owners).toHaveLength(1);
    }
  });
});

describe('token limit under parallel creates', () => {
  it('never holds more than 100 live tokens, however many creates race', async () => {
    const email = uniqueEmail();
    const session = await sessionFor(service, email);
    // 90 tokens in one batch: the race that matters is the one for the last 10 slots.
    await seedTokens(session, 90, { tableName });
    const replies = await Promise.all(
      Array.from({ length: 40 }, () =>
        call(service, 'POST', '/api/v1/tokens', { token: session, json: { name: 'race', scopes: ['read:secrets'] } }),
      ),
    );
    const created = replies.filter((reply) => reply.status === 201).length;
    expect(created).toBeLessThanOrEqual(10);
    // A create that loses the race ten times answers 503 with Retry-After rather than wait longer.
    for (const reply of replies.filter((r) => r.status !== 201)) expect([409, 503]).toContain(reply.status);
    const { sub } = decodeJwt(session);
    const tokens = (await scanAll()).filter((item) => item.entity === 'Token' && item.userId === sub);
    // A 503 says the outcome is unknown: on a busy machine DynamoDB may have stored the token before
    // every attempt's answer came too late. Each 201 is stored, and never more than the limit.
    const unknown = replies.filter((reply) => reply.status === 503).length;
    expect(tokens.length).toBeGreaterThanOrEqual(90 + created);
    expect(tokens.length).toBeLessThanOrEqual(Math.min(100, 90 + created + unknown));
  });
});
