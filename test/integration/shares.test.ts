import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { openShare, sealShare } from '@client/index';
import type { AuditEvent } from '@contract/audit';
import { ErrorText } from '@contract/errors';
import { SHARE_LIMIT } from '@contract/limits';
import { shareKey } from '@lambdas/data/keys';
import { setClock } from '@lambdas/domain/clock';
import type { LocalService } from '../../local/service';
import { call, createToken, signedIn, startService } from './harness';

/** Shares, black box against the local runtime: sealed by the client, burned atomically, refused alike. */

const documentClient = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: process.env.TEST_DYNAMODB_ENDPOINT ?? '' }),
);
let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  setClock();
  documentClient.destroy();
  await service.close();
});
// A test that fails with the clock moved must not leave it moved for the next one.
afterEach(() => setClock());

const create = (token: string, json: Record<string, unknown>) =>
  call(service, 'POST', '/api/v1/shares', { token, json });
const reveal = (token: string, id: string) => call(service, 'POST', `/api/v1/shares/${id}/reveal`, { token });
const look = (token: string, id: string) => call(service, 'GET', `/api/v1/shares/${id}`, { token });
const list = async (token: string) => {
  const reply = await call(service, 'GET', '/api/v1/shares', { token });
  expect(reply.status).toBe(200);
  return reply.body.data as { id: string; viewsLeft: number }[];
};

/** The share's stored item, read strongly (whether it still exists, whatever the API says). */
const storedItem = async (id: string) =>
  (
    await documentClient.send(
      new GetCommand({ TableName: process.env.TEST_TABLE_NAME ?? '', Key: shareKey(id), ConsistentRead: true }),
    )
  ).Item;

/** A share of `value` sealed as the clients seal it; its id, ciphertext and key. */
const shareOf = async (token: string, value: string, options: Record<string, unknown> = {}) => {
  const sealed = await sealShare(value);
  const reply = await create(token, { ciphertext: sealed.ciphertext, ...options });
  expect([reply.status, reply.text]).toEqual([201, expect.any(String)]);
  return { id: reply.body.data.id as string, ...sealed, data: reply.body.data };
};

const notFound = { success: false, error: ErrorText.shareNotFound };

describe('a share', () => {
  it('is created with its defaults, shown to who reveals it, opened with the link’s key, and spent', async () => {
    const ada = await signedIn(service, 'ada');
    const bob = await signedIn(service, 'bob');
    const before = Date.now();
    const share = await shareOf(ada.session, 'hunter2 ✓\nsecond line');
    expect(share.data).toEqual({
      id: expect.stringMatching(/^shr_[0-9A-Za-z]{22}$/),
      expiresAt: expect.any(String),
      maxViews: 1,
      viewsLeft: 1,
      recipients: null,
    });
    const hours = (Date.parse(share.data.expiresAt) - before) / 3_600_000;
    expect(hours).toBeGreaterThan(23.99);
    expect(hours).toBeLessThanOrEqual(24.01);

    const looked = await look(bob.session, share.id);
    expect(looked.body).toEqual({
      success: true,
      data: { viewsLeft: 1, expiresAt: share.data.expiresAt, createdBy: { email: ada.email } },
    });
    const revealed = await reveal(bob.session, share.id);
    expect(revealed.status).toBe(200);
    expect(revealed.body.data).toEqual({
      ciphertext: share.ciphertext,
      viewsLeft: 0,
      expiresAt: share.data.expiresAt,
      createdBy: { email: ada.email },
    });
    expect(await openShare(revealed.body.data.ciphertext, share.key)).toBe('hunter2 ✓\nsecond line');
    expect((await reveal(bob.session, share.id)).body).toEqual(notFound);
    expect((await look(ada.session, share.id)).body).toEqual(notFound);
    expect(await storedItem(share.id)).toBeUndefined();
  });

  it('gives exactly one of 20 concurrent reveals of a one-view share, and exactly three of a three-view one', async () => {
    const ada = await signedIn(service, 'ada');
    const readers = await Promise.all(Array.from({ length: 4 }, (_, index) => signedIn(service, `reader${index}`)));
    for (const views of [1, 3]) {
      const share = await shareOf(ada.session, `once-${views}`, { maxViews: views });
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, index) => reveal(readers[index % readers.length]?.session ?? '', share.id)),
      );
      const revealed = replies.filter((reply) => reply.status === 200);
      expect(revealed).toHaveLength(views);
      expect(revealed.map((reply) => reply.body.data.viewsLeft).sort()).toEqual(
        Array.from({ length: views }, (_, index) => index),
      );
      // The others are refused: a 404, or, on a machine so busy that DynamoDB did not answer in time,
      // a fail-closed 503 that revealed nothing.
      for (const reply of replies.filter((reply) => reply.status !== 200)) {
        expect([404, 503]).toContain(reply.status);
      }
      expect((await reveal(ada.session, share.id)).body).toEqual(notFound);
      expect(await storedItem(share.id)).toBeUndefined();
    }
  });

  it('is refused once past its expiry, while its item is still in the table', async () => {
    const ada = await signedIn(service, 'ada');
    // A token that outlives the moved clock (a session expires within the hour).
    const { rawToken } = await createToken(service, ada.session, { name: 'n', scopes: ['admin'], ttlDays: null });
    const share = await shareOf(rawToken, 'soon gone', { expiresInHours: 1, maxViews: 2 });
    setClock({ now: () => new Date(Date.parse(share.data.expiresAt) + 1) });
    expect((await look(rawToken, share.id)).body).toEqual(notFound);
    expect((await reveal(rawToken, share.id)).body).toEqual(notFound);
    expect(await list(rawToken)).toEqual([]);
    expect((await call(service, 'DELETE', `/api/v1/shares/${share.id}`, { token: rawToken })).body).toEqual(notFound);
    expect(await storedItem(share.id)).toMatchObject({ viewsLeft: 2 });
    setClock();
    expect((await reveal(rawToken, share.id)).status).toBe(200);
  });

  it('reveals only to its recipients; anyone else gets the same 404 and spends nothing', async () => {
    const ada = await signedIn(service, 'ada');
    const bob = await signedIn(service, 'bob');
    const eve = await signedIn(service, 'eve');
    const share = await shareOf(ada.session, 'for bob', { recipients: [` ${bob.email.toUpperCase()} `], maxViews: 2 });
    expect(share.data.recipients).toEqual([bob.email]);
    const eveToken = await createToken(service, eve.session, { name: 'r', scopes: ['read:secrets'] });
    for (const token of [eve.session, eveToken.rawToken, ada.session]) {
      expect((await look(token, share.id)).body).toEqual(notFound);
      expect((await reveal(token, share.id)).body).toEqual(notFound);
    }
    expect(await storedItem(share.id)).toMatchObject({ viewsLeft: 2 });
    expect((await list(ada.session)).find((entry) => entry.id === share.id)?.viewsLeft).toBe(2);
    const revealed = await reveal(bob.session, share.id);
    expect([revealed.status, revealed.body.data.viewsLeft]).toEqual([200, 1]);
  });

  it('answers every refusal alike: unknown, malformed, spent, withdrawn', async () => {
    const ada = await signedIn(service, 'ada');
    const share = await shareOf(ada.session, 'withdrawn');
    for (const id of ['shr_AAAAAAAAAAAAAAAAAAAAAA', 'nope', 'shr_short', `${share.id}x`]) {
      expect((await reveal(ada.session, id)).body).toEqual(notFound);
      expect((await look(ada.session, id)).body).toEqual(notFound);
      expect((await call(service, 'DELETE', `/api/v1/shares/${id}`, { token: ada.session })).body).toEqual(notFound);
    }
  });
});

describe('a creator’s shares', () => {
  it('are listed newest first without ciphertexts, and withdrawn by their creator only', async () => {
    const ada = await signedIn(service, 'ada');
    const bob = await signedIn(service, 'bob');
    const first = await shareOf(ada.session, 'first', { maxViews: 5, expiresInHours: 720 });
    const second = await shareOf(ada.session, 'second', { recipients: [bob.email] });
    const listed = await call(service, 'GET', '/api/v1/shares', { token: ada.session });
    expect(listed.body.data).toEqual([
      { ...second.data, createdAt: expect.any(String) },
      { ...first.data, createdAt: expect.any(String) },
    ]);
    expect(listed.text).not.toContain(first.ciphertext);
    expect(await list(bob.session)).toEqual([]);

    expect((await call(service, 'DELETE', `/api/v1/shares/${first.id}`, { token: bob.session })).body).toEqual(
      notFound,
    );
    expect((await reveal(bob.session, first.id)).status).toBe(200);
    const withdrawn = await call(service, 'DELETE', `/api/v1/shares/${first.id}`, { token: ada.session });
    expect(withdrawn.body).toEqual({ success: true });
    expect((await reveal(bob.session, first.id)).body).toEqual(notFound);
    expect((await list(ada.session)).map((entry) => entry.id)).toEqual([second.id]);
  });

  it('are at most 100 live at once; a spent, withdrawn or expired one frees its place', async () => {
    const person = await signedIn(service, 'ada');
    // A token that outlives the moved clock (a session expires within the hour).
    const { rawToken } = await createToken(service, person.session, { name: 'n', scopes: ['admin'], ttlDays: null });
    const ada = { session: rawToken };
    const ids: string[] = [];
    for (let index = 0; index < SHARE_LIMIT; index += 1) {
      ids.push((await shareOf(ada.session, `s${index}`, { expiresInHours: index === 0 ? 1 : 24 })).id);
    }
    const over = await create(ada.session, { ciphertext: 'AAAA' });
    expect([over.status, over.body]).toEqual([409, { success: false, error: ErrorText.shareLimit }]);

    expect((await reveal(ada.session, ids[1] ?? '')).status).toBe(200);
    expect((await create(ada.session, { ciphertext: 'AAAA' })).status).toBe(201);
    expect((await create(ada.session, { ciphertext: 'AAAA' })).status).toBe(409);

    expect((await call(service, 'DELETE', `/api/v1/shares/${ids[2]}`, { token: ada.session })).status).toBe(200);
    expect((await create(ada.session, { ciphertext: 'AAAA' })).status).toBe(201);
    expect((await create(ada.session, { ciphertext: 'AAAA' })).status).toBe(409);

    setClock({ now: () => new Date(Date.now() + 2 * 3_600_000) });
    expect((await create(ada.session, { ciphertext: 'AAAA' })).status).toBe(201);
    expect((await create(ada.session, { ciphertext: 'AAAA' })).status).toBe(409);
  });

  it('hold under concurrent creates: never more than the limit', async () => {
    const ada = await signedIn(service, 'ada');
    for (let index = 0; index < SHARE_LIMIT - 5; index += 1) await shareOf(ada.session, `s${index}`);
    const replies = await Promise.all(Array.from({ length: 12 }, () => create(ada.session, { ciphertext: 'AAAA' })));
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(true);
    expect(await list(ada.session)).toHaveLength(SHARE_LIMIT);
  });
});

describe('the share routes’ rules', () => {
  it('take the token scopes of reading and writing secrets', async () => {
    const ada = await signedIn(service, 'ada');
    const reader = await createToken(service, ada.session, { name: 'r', scopes: ['read:secrets'] });
    const writer = await createToken(service, ada.session, { name: 'w', scopes: ['write:secrets'] });
    const made = await create(writer.rawToken, { ciphertext: 'AAAA', maxViews: 3 });
    expect(made.status).toBe(201);
    expect((await create(reader.rawToken, { ciphertext: 'AAAA' })).body).toEqual({
      success: false,
      error: ErrorText.scope,
    });
    expect((await reveal(reader.rawToken, made.body.data.id)).status).toBe(200);
    expect((await reveal(writer.rawToken, made.body.data.id)).status).toBe(403);
    expect((await call(service, 'GET', '/api/v1/shares', { token: reader.rawToken })).status).toBe(200);
  });

  it('are closed to a token limited to projects: shares belong to no project', async () => {
    const ada = await signedIn(service, 'ada');
    const projectId = (await call(service, 'POST', '/api/v1/projects', { token: ada.session, json: { name: 'p' } }))
      .body.data.projectId;
    const limited = await createToken(service, ada.session, {
      name: 'l',
      scopes: ['admin'],
      projects: [{ projectId }],
    });
    const share = await shareOf(ada.session, 'not for a limited token');
    for (const reply of [
      await create(limited.rawToken, { ciphertext: 'AAAA' }),
      await reveal(limited.rawToken, share.id),
      await call(service, 'GET', '/api/v1/shares', { token: limited.rawToken }),
    ]) {
      expect([reply.status, reply.body.error]).toEqual([403, ErrorText.tokenResource]);
    }
    expect(await storedItem(share.id)).toMatchObject({ viewsLeft: 1 });
  });

  it('refuse a body out of its bounds, naming the field', async () => {
    const ada = await signedIn(service, 'ada');
    const refused = async (json: Record<string, unknown>) => {
      const reply = await create(ada.session, json);
      expect([reply.status, reply.body.error]).toEqual([400, ErrorText.validation]);
      return (reply.body.details as { path: string }[]).map((detail) => detail.path);
    };
    expect(await refused({ ciphertext: 'not base64url!' })).toEqual(['ciphertext']);
    expect(await refused({ ciphertext: 'A'.repeat(90_001) })).toEqual(['ciphertext']);
    expect(await refused({ ciphertext: 'AAAA', expiresInHours: 0 })).toEqual(['expiresInHours']);
    expect(await refused({ ciphertext: 'AAAA', expiresInHours: 721 })).toEqual(['expiresInHours']);
    expect(await refused({ ciphertext: 'AAAA', maxViews: 101 })).toEqual(['maxViews']);
    expect(await refused({ ciphertext: 'AAAA', maxViews: 1.5 })).toEqual(['maxViews']);
    expect(await refused({ ciphertext: 'AAAA', recipients: [] })).toEqual(['recipients']);
    expect(await refused({ ciphertext: 'AAAA', recipients: ['a@example.com', 'A@example.com'] })).toEqual([
      'recipients',
    ]);
    expect(await refused({ ciphertext: 'AAAA', recipients: ['not an address'] })).toEqual(['recipients.0']);
    expect(await refused({ ciphertext: 'AAAA', key: 'x' })).toEqual(['']);
    const longest = await create(ada.session, { ciphertext: 'A'.repeat(90_000), expiresInHours: 720, maxViews: 100 });
    expect(longest.status).toBe(201);
  });

  it('record created, revealed and withdrawn in the creator’s trail, never the ciphertext', async () => {
    const ada = await signedIn(service, 'ada');
    const bob = await signedIn(service, 'bob');
    const share = await shareOf(ada.session, 'audited', { maxViews: 2 });
    await reveal(bob.session, share.id);
    await call(service, 'DELETE', `/api/v1/shares/${share.id}`, { token: ada.session });
    const trail = await call(service, 'GET', '/api/v1/audit-events?limit=10', { token: ada.session });
    const events = (trail.body.data as AuditEvent[]).filter((event) => event.type.startsWith('share.'));
    expect(events.map((event) => event.type)).toEqual(['share.deleted', 'share.revealed', 'share.created']);
    expect(events[2]).toMatchObject({
      actor: { email: ada.email, via: 'session' },
      target: { shareId: share.id },
      details: { expiresAt: share.data.expiresAt, maxViews: 2, viewsLeft: 2 },
    });
    expect(events[1]).toMatchObject({
      actor: { email: bob.email, via: 'session' },
      target: { shareId: share.id, email: ada.email },
      details: { viewsLeft: 1 },
    });
    expect(events[0]).toMatchObject({ actor: { email: ada.email }, target: { shareId: share.id } });
    expect(trail.text).not.toContain(share.ciphertext);
    const bobs = await call(service, 'GET', '/api/v1/audit-events?type=share.revealed', { token: bob.session });
    expect(bobs.body.data).toEqual([]);
  });
});
