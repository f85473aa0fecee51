import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ErrorText } from '@contract/errors';
import { MAX_WEBHOOKS } from '@contract/limits';
import { webhookKey } from '@lambdas/data/keys';
import type { LocalService } from '../../local/service';
import { arrange, call, createProject, createToken, signedIn, startService } from './harness';

/** A project's webhooks through the local gateway: who may register, list, ping and delete them, and the rules. */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const webhooks = (projectId: string) => `/api/v1/projects/${projectId}/webhooks`;
const PUBLIC_URL = 'https://203.0.114.10/hooks/secrets?key=receiver-own-secret';
const registration = { url: PUBLIC_URL, events: ['secret.*', 'change_request.applied'] };

/** An owner's new project with an admin and a plain member. */
const projectWithTeam = async () => {
  const owner = await signedIn(service, 'owner');
  const admin = await signedIn(service, 'admin');
  const member = await signedIn(service, 'member');
  const projectId = await createProject(service, owner.session);
  for (const [who, role] of [
    [admin, 'admin'],
    [member, 'member'],
  ] as const) {
    const added = await arrange(service, 'POST', `/api/v1/projects/${projectId}/members`, {
      token: owner.session,
      json: { email: who.email, role },
    });
    expect(added.status).toBe(200);
  }
  return { owner, admin, member, projectId };
};

const projectEvents = async (session: string, projectId: string) =>
  (await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events`, { token: session })).body.data as {
    type: string;
    target: { webhookId: string | null };
    details: { url: string | null };
  }[];

describe('POST /api/v1/projects/{projectId}/webhooks', () => {
  it('registers a webhook for an owner or an admin, shows its secret once and stores it only sealed', async () => {
    const { owner, admin, projectId } = await projectWithTeam();
    for (const who of [owner, admin]) {
      const created = await call(service, 'POST', webhooks(projectId), { token: who.session, json: registration });
      expect(created.status).toBe(201);
      const { secret, ...webhook } = created.body.data;
      expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
      expect(webhook).toEqual({
        id: expect.stringMatching(/^whk_[0-9A-Za-z]{16}$/),
        url: PUBLIC_URL,
        events: registration.events,
        environments: null,
        createdAt: expect.any(String),
      });
      const documents = DynamoDBDocumentClient.from(
        new DynamoDBClient({ endpoint: process.env.TEST_DYNAMODB_ENDPOINT }),
      );
      const { Item: item } = await documents.send(
        new GetCommand({ TableName: process.env.TEST_TABLE_NAME, Key: webhookKey(projectId, webhook.id) }),
      );
      expect(item?.secret).toBeInstanceOf(Uint8Array);
      expect(JSON.stringify(item)).not.toContain(secret);
      expect(Buffer.from(item?.secret).includes(secret)).toBe(false);
    }
    const listed = await call(service, 'GET', webhooks(projectId), { token: admin.session });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.text).not.toContain('whsec_');
  });

  it('records webhook.created with the webhook and its origin only, never its path or secret', async () => {
    const { owner, projectId } = await projectWithTeam();
    const created = await call(service, 'POST', webhooks(projectId), { token: owner.session, json: registration });
    const events = await projectEvents(owner.session, projectId);
    const event = events.find((entry) => entry.type === 'webhook.created');
    expect(event?.target.webhookId).toBe(created.body.data.id);
    expect(event?.details.url).toBe('https://203.0.114.10');
    expect(JSON.stringify(events)).not.toContain('receiver-own-secret');
    expect(JSON.stringify(events)).not.toContain(created.body.data.secret);
  });

  it('refuses a plain member (403) and a non-member (404)', async () => {
    const { member, projectId } = await projectWithTeam();
    const stranger = await signedIn(service, 'stranger');
    const refused = await call(service, 'POST', webhooks(projectId), { token: member.session, json: registration });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, error: ErrorText.projectRole });
    const unknown = await call(service, 'POST', webhooks(projectId), { token: stranger.session, json: registration });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, error: ErrorText.projectNotFound });
  });

  it('refuses a token limited to environments of the project, as every project-level route does', async () => {
    const { owner, projectId } = await projectWithTeam();
    const limited = await createToken(service, owner.session, {
      name: 'env-only',
      scopes: ['admin'],
      projects: [{ projectId, environments: ['development'] }],
    });
    const refused = await call(service, 'POST', webhooks(projectId), { token: limited.rawToken, json: registration });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, error: ErrorText.tokenResource });
    const whole = await createToken(service, owner.session, {
      name: 'whole',
      scopes: ['admin'],
      projects: [{ projectId }],
    });
    expect(
      (await call(service, 'POST', webhooks(projectId), { token: whole.rawToken, json: registration })).status,
    ).toBe(201);
  });

  it.each([
    ['plain http', 'http://203.0.114.10/in'],
    ['a private address', 'https://10.1.2.3/in'],
    ['the instance metadata address', 'https://169.254.169.254/latest'],
    ['the container credentials address', 'https://169.254.170.2/v2/credentials'],
    ['loopback (not allowed outside npm start with WEBHOOKS_ALLOW_LOOPBACK=1)', 'http://127.0.0.1:9/in'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/in'],
    ['carrier-grade NAT', 'https://100.64.0.1/in'],
  ])('refuses %s with 400 and the reason', async (_, url) => {
    const { owner, projectId } = await projectWithTeam();
    const refused = await call(service, 'POST', webhooks(projectId), {
      token: owner.session,
      json: { url, events: ['secret.*'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      success: false,
      error: ErrorText.validation,
      details: [{ path: 'url', message: expect.any(String) }],
    });
  });

  it('refuses an event pattern that names no audit event type', async () => {
    const { owner, projectId } = await projectWithTeam();
    for (const events of [['secret.exploded'], ['nothing.*'], ['*'], []]) {
      const refused = await call(service, 'POST', webhooks(projectId), {
        token: owner.session,
        json: { url: PUBLIC_URL, events },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(ErrorText.validation);
    }
  });

  it(`holds the limit of ${MAX_WEBHOOKS} under concurrent registrations`, async () => {
    const { owner, projectId } = await projectWithTeam();
    const replies = await Promise.all(
      Array.from({ length: MAX_WEBHOOKS + 3 }, () =>
        call(service, 'POST', webhooks(projectId), { token: owner.session, json: registration }),
      ),
    );
    const statuses = replies.map((reply) => reply.status).filter((status) => status !== 503);
    expect(statuses.filter((status) => status === 201).length).toBeLessThanOrEqual(MAX_WEBHOOKS);
    const listed = await call(service, 'GET', webhooks(projectId), { token: owner.session });
    expect(listed.body.data.length).toBeLessThanOrEqual(MAX_WEBHOOKS);
    while (
      (await call(service, 'GET', webhooks(projectId), { token: owner.session })).body.data.length < MAX_WEBHOOKS
    ) {
      expect(
        (await arrange(service, 'POST', webhooks(projectId), { token: owner.session, json: registration })).status,
      ).toBe(201);
    }
    const over = await call(service, 'POST', webhooks(projectId), { token: owner.session, json: registration });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ success: false, error: ErrorText.webhookLimit });
    for (const reply of replies.filter((entry) => entry.status === 409)) {
      expect(reply.body.error).toBe(ErrorText.webhookLimit);
    }
    // A delete frees a place.
    const [first] = (await call(service, 'GET', webhooks(projectId), { token: owner.session })).body.data;
    expect((await call(service, 'DELETE', `${webhooks(projectId)}/${first.id}`, { token: owner.session })).status).toBe(
      200,
    );
    expect(
      (await call(service, 'POST', webhooks(projectId), { token: owner.session, json: registration })).status,
    ).toBe(201);
  });
});

describe('DELETE, ping and deliveries of /api/v1/projects/{projectId}/webhooks/{webhookId}', () => {
  it('deletes a webhook with webhook.deleted, then answers 404 Webhook not found', async () => {
    const { owner, admin, member, projectId } = await projectWithTeam();
    const { id } = (await call(service, 'POST', webhooks(projectId), { token: owner.session, json: registration })).body
      .data;
    const byMember = await call(service, 'DELETE', `${webhooks(projectId)}/${id}`, { token: member.session });
    expect(byMember.status).toBe(403);
    const deleted = await call(service, 'DELETE', `${webhooks(projectId)}/${id}`, { token: admin.session });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    for (const [method, suffix] of [
      ['DELETE', ''],
      ['POST', '/ping'],
      ['GET', '/deliveries'],
    ] as const) {
      const gone = await call(service, method, `${webhooks(projectId)}/${id}${suffix}`, { token: owner.session });
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ success: false, error: ErrorText.webhookNotFound });
    }
    expect((await call(service, 'GET', webhooks(projectId), { token: owner.session })).body.data).toEqual([]);
    const events = await projectEvents(owner.session, projectId);
    expect(events.find((event) => event.type === 'webhook.deleted')?.target.webhookId).toBe(id);
  });

  it('answers 404 Webhook not found for a malformed or unknown id', async () => {
    const { owner, projectId } = await projectWithTeam();
    for (const id of ['nope', 'whk_AAAAAAAAAAAAAAAA']) {
      const reply = await call(service, 'DELETE', `${webhooks(projectId)}/${id}`, { token: owner.session });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ success: false, error: ErrorText.webhookNotFound });
    }
  });

  it('pings a webhook with a webhook.pinged event, and lists no delivery yet', async () => {
    const { owner, projectId } = await projectWithTeam();
    const { id } = (await call(service, 'POST', webhooks(projectId), { token: owner.session, json: registration })).body
      .data;
    const pinged = await call(service, 'POST', `${webhooks(projectId)}/${id}/ping`, { token: owner.session });
    expect(pinged.status).toBe(200);
    expect(pinged.body.data.eventId).toMatch(/^evt_/);
    const events = await projectEvents(owner.session, projectId);
    expect(events.find((event) => event.type === 'webhook.pinged')?.target.webhookId).toBe(id);
    const deliveries = await call(service, 'GET', `${webhooks(projectId)}/${id}/deliveries`, { token: owner.session });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data).toEqual([]);
  });
});
