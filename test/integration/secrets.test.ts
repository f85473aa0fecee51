import { ErrorText } from '@contract/errors';
import { MAX_EXPORT_BYTES, MAX_PATCH_CHANGES, MAX_SECRET_VALUE_BYTES, MAX_SECRETS } from '@contract/limits';
import { setClock } from '@lambdas/domain/clock';
import type { LocalService } from '../../local/service';
import { call, createProject, createToken, signedIn, startService, withPatientClient } from './harness';

/** Secrets, black box against `npm start`: versions, check-and-set, soft delete, restore, export, PATCH, reads recorded. */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;

const base = (projectId: string, environment = 'development') =>
  `/api/v1/projects/${projectId}/environments/${environment}`;
const secrets = (projectId: string, environment = 'development') => `${base(projectId, environment)}/secrets`;
const secret = (projectId: string, name: string, environment = 'development') =>
  `${secrets(projectId, environment)}/${name}`;

/** An owner's new project, with a plain member in it. */
const projectWithMember = async () => {
  const owner = await signedIn(service, 'owner');
  const member = await signedIn(service, 'member');
  const projectId = await createProject(service, owner.session);
  const added = await call(service, 'POST', `/api/v1/projects/${projectId}/members`, {
    token: owner.session,
    json: { email: member.email, role: 'member' },
  });
  expect(added.status).toBe(200);
  return { owner, member, projectId };
};

const put = (token: string, path: string, json: unknown) => call(service, 'PUT', path, { token, json });

/** The project's trail, oldest first, of the given types. */
const trail = async (projectId: string, session: string, type: string) => {
  const reply = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events?type=${type}&limit=100`, {
    token: session,
  });
  expect(reply.status).toBe(200);
  return reply.body.data as { type: string; actor: { userId: string }; details: Record<string, unknown> }[];
};

describe('secrets of an environment', () => {
  it('creates with 201 and version 1, updates with 200 and the next version, and reads the value back', async () => {
    const { owner, member, projectId } = await projectWithMember();
    const created = await put(member.session, secret(projectId, 'DATABASE_URL'), { value: 'postgres://one' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: {
        name: 'DATABASE_URL',
        version: 1,
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedBy: { userId: expect.any(String), email: member.email },
      },
    });
    const updated = await put(owner.session, secret(projectId, 'DATABASE_URL'), { value: 'postgres://two' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'DATABASE_URL', version: 2, updatedBy: { email: owner.email } });
    expect(JSON.stringify(updated.body)).not.toContain('postgres');

    const read = await call(service, 'GET', secret(projectId, 'DATABASE_URL'), { token: member.session });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ name: 'DATABASE_URL', value: 'postgres://two', version: 2 });
    const first = await call(service, 'GET', `${secret(projectId, 'DATABASE_URL')}?version=1`, {
      token: member.session,
    });
    expect(first.body.data).toMatchObject({ value: 'postgres://one', version: 1, updatedBy: { email: member.email } });
    const missing = await call(service, 'GET', `${secret(projectId, 'DATABASE_URL')}?version=3`, {
      token: member.session,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(ErrorText.secretVersionNotFound);

    const listed = await call(service, 'GET', secrets(projectId), { token: member.session });
    expect(listed.body.data).toEqual([
      { name: 'DATABASE_URL', version: 2, updatedAt: expect.any(String), updatedBy: expect.any(Object) },
    ]);
    const environments = await call(service, 'GET', `/api/v1/projects/${projectId}/environments`, {
      token: member.session,
    });
    expect(environments.body.data.find((entry: { name: string }) => entry.name === 'development').secretCount).toBe(1);
  });

  it('answers 404 in the contract’s words for a stranger, an unknown environment and an unknown secret', async () => {
    const { owner, projectId } = await projectWithMember();
    const stranger = await signedIn(service, 'stranger');
    const cases: [string, string, string][] = [
      [stranger.session, secret(projectId, 'A'), ErrorText.projectNotFound],
      [owner.session, secret(projectId, 'A', 'nowhere'), ErrorText.environmentNotFound],
      [owner.session, secret(projectId, 'A'), ErrorText.secretNotFound],
      [owner.session, `${secret(projectId, 'A')}/versions`, ErrorText.secretNotFound],
      [owner.session, secret(projectId, '1BAD'), ErrorText.secretNotFound],
      [owner.session, secrets(projectId, 'Bad_Env'), ErrorText.environmentNotFound],
    ];
    for (const [token, path, error] of cases) {
      const reply = await call(service, 'GET', path, { token });
      expect({ path, status: reply.status, error: reply.body.error }).toEqual({ path, status: 404, error });
    }
    const write = await put(stranger.session, secret(projectId, 'A'), { value: 'x' });
    expect([write.status, write.body.error]).toEqual([404, ErrorText.projectNotFound]);
    const nowhere = await put(owner.session, secret(projectId, 'A', 'nowhere'), { value: 'x' });
    expect([nowhere.status, nowhere.body.error]).toEqual([404, ErrorText.environmentNotFound]);
  });

  it(`takes a value of ${MAX_SECRET_VALUE_BYTES} UTF-8 bytes and refuses one more with 400 and details`, async () => {
    const { owner, projectId } = await projectWithMember();
    const largest = `${'é'.repeat((MAX_SECRET_VALUE_BYTES - 2) / 2)}ab`;
    expect(Buffer.byteLength(largest)).toBe(MAX_SECRET_VALUE_BYTES);
    const taken = await put(owner.session, secret(projectId, 'BIG'), { value: largest });
    expect(taken.status).toBe(201);
    const read = await call(service, 'GET', secret(projectId, 'BIG'), { token: owner.session });
    expect(read.body.data.value).toBe(largest);
    const control = '\u0000'.repeat(MAX_SECRET_VALUE_BYTES);
    expect((await put(owner.session, secret(projectId, 'ESCAPED'), { value: control })).status).toBe(201);
    const refused = await put(owner.session, secret(projectId, 'BIG'), { value: `${largest}c` });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      success: false,
      error: ErrorText.validation,
      details: [{ path: 'value', message: `A value has at most ${MAX_SECRET_VALUE_BYTES} bytes in UTF-8` }],
    });
    for (const name of ['__proto__', '9LIVES', 'X'.repeat(129)]) {
      const refusedName = await put(owner.session, secret(projectId, name), { value: 'x' });
      expect([name, refusedName.status, refusedName.body.details?.[0]?.path]).toEqual([name, 400, 'name']);
    }
    const proto = await call(service, 'PATCH', secrets(projectId), {
      token: owner.session,
      rawBody: '{"set":{"__proto__":"x","SAFE":"y"}}',
      headers: [['Content-Type', 'application/json']],
    });
    expect(proto.body).toEqual({
      success: false,
      error: ErrorText.validation,
      details: [{ path: 'set', message: 'A secret may not be named __proto__' }],
    });
    const badName = await put(owner.session, secret(projectId, 'HAS-DASH'), { value: 'x' });
    expect(badName.status).toBe(400);
    expect(badName.body).toEqual({
      success: false,
      error: ErrorText.validation,
      details: [{ path: 'name', message: expect.stringContaining('A-Z, a-z, 0-9 and _') }],
    });
  });

  it('keeps an environment while it holds a live secret, and a removed member out of its secrets', async () => {
    const { owner, member, projectId } = await projectWithMember();
    await put(member.session, secret(projectId, 'KEY', 'staging'), { value: 'v' });
    const environment = `/api/v1/projects/${projectId}/environments/staging`;
    const kept = await call(service, 'DELETE', environment, { token: owner.session });
    expect([kept.status, kept.body.error]).toEqual([409, ErrorText.environmentNotEmpty]);

    const removed = await call(
      service,
      'DELETE',
      `/api/v1/projects/${projectId}/members/${encodeURIComponent(member.email)}`,
      {
        token: owner.session,
      },
    );
    expect(removed.status).toBe(200);
    for (const [method, path] of [
      ['GET', secret(projectId, 'KEY', 'staging')],
      ['GET', `${base(projectId, 'staging')}/export`],
      ['DELETE', secret(projectId, 'KEY', 'staging')],
    ] as const) {
      const refused = await call(service, method, path, { token: member.session });
      expect([method, path, refused.status, refused.body.error]).toEqual([
        method,
        path,
        404,
        ErrorText.projectNotFound,
      ]);
    }
    const write = await put(member.session, secret(projectId, 'KEY', 'staging'), { value: 'w' });
    expect([write.status, write.body.error]).toEqual([404, ErrorText.projectNotFound]);

    expect((await call(service, 'DELETE', secret(projectId, 'KEY', 'staging'), { token: owner.session })).status).toBe(
      200,
    );
    expect((await call(service, 'DELETE', environment, { token: owner.session })).status).toBe(200);
  });

  it('writes only at the expected version: one of 20 concurrent writers wins each version, the rest get 409', async () => {
    const { owner, projectId } = await projectWithMember();
    const path = secret(projectId, 'COUNTER');
    // The writers race each other, not the service's one-second DynamoDB timeout, which a busy machine's
    // DynamoDB Local can outlast under twenty transactions at once (a 503 that says nothing of the race).
    const race = (expectedVersion: number, prefix: string) =>
      withPatientClient(() =>
        Promise.all(
          Array.from({ length: 20 }, (_unused, index) =>
            put(owner.session, path, { value: `${prefix}${index}`, expectedVersion }),
          ),
        ),
      );
    const replies = await race(0, 'v');
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1);
    const refused = replies.filter((reply) => reply.status !== 201);
    expect(refused.map((reply) => [reply.status, reply.body.error])).toEqual(
      refused.map(() => [409, ErrorText.secretConflict]),
    );
    const next = await race(1, 'w');
    expect(next.filter((reply) => reply.status === 200)).toHaveLength(1);
    const versions = await call(service, 'GET', `${path}/versions`, { token: owner.session });
    expect(versions.body.data.map((entry: { version: number }) => entry.version)).toEqual([2, 1]);
  });

  it('gives every one of concurrent writers without an expected version its own version', async () => {
    const { owner, projectId } = await projectWithMember();
    const path = secret(projectId, 'RACE');
    // Under the patient client, as above: seen as three 503s in a full integration run.
    const replies = await withPatientClient(() =>
      Promise.all(Array.from({ length: 10 }, (_unused, index) => put(owner.session, path, { value: `v${index}` }))),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(replies.map((reply) => reply.body.data.version).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
  });

  it('deletes softly: gone from list and export, kept in the history, restorable, numbers continuing', async () => {
    const { owner, member, projectId } = await projectWithMember();
    const path = secret(projectId, 'TOKEN');
    await put(owner.session, path, { value: 'first' });
    await put(owner.session, path, { value: 'second' });
    const deleted = await call(service, 'DELETE', path, { token: member.session });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    const again = await call(service, 'DELETE', path, { token: member.session });
    expect([again.status, again.body.error]).toEqual([404, ErrorText.secretNotFound]);
    expect((await call(service, 'GET', secrets(projectId), { token: owner.session })).body.data).toEqual([]);
    expect((await call(service, 'GET', `${base(projectId)}/export`, { token: owner.session })).body.data).toEqual({});
    const read = await call(service, 'GET', path, { token: owner.session });
    expect([read.status, read.body.error]).toEqual([404, ErrorText.secretNotFound]);
    const history = await call(service, 'GET', `${path}/versions`, { token: owner.session });
    expect(history.body.data).toEqual([
      {
        version: 3,
        updatedAt: expect.any(String),
        updatedBy: expect.objectContaining({ email: member.email }),
        deleted: true,
      },
      { version: 2, updatedAt: expect.any(String), updatedBy: expect.any(Object), deleted: false },
      { version: 1, updatedAt: expect.any(String), updatedBy: expect.any(Object), deleted: false },
    ]);
    const deletedList = await call(service, 'GET', `${secrets(projectId)}?deleted=true`, { token: owner.session });
    expect([deletedList.status, deletedList.body.data]).toEqual([
      200,
      [
        {
          name: 'TOKEN',
          version: 3,
          updatedAt: history.body.data[0].updatedAt,
          updatedBy: expect.objectContaining({ email: member.email }),
        },
      ],
    ]);
    const live = await call(service, 'GET', `${secrets(projectId)}?deleted=false`, { token: owner.session });
    expect(live.body.data).toEqual([]);
    const oddQuery = await call(service, 'GET', `${secrets(projectId)}?deleted=yes`, { token: owner.session });
    expect([oddQuery.status, oddQuery.body.details]).toEqual([
      400,
      [{ path: 'deleted', message: 'Use true or false' }],
    ]);
    const ofDelete = await call(service, 'POST', `${path}/restore`, { token: owner.session, json: { version: 3 } });
    expect([ofDelete.status, ofDelete.body.error]).toEqual([404, ErrorText.secretVersionNotFound]);
    const restored = await call(service, 'POST', `${path}/restore`, { token: owner.session, json: { version: 1 } });
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ name: 'TOKEN', version: 4 });
    expect((await call(service, 'GET', path, { token: owner.session })).body.data).toMatchObject({
      value: 'first',
      version: 4,
    });
    const afterRestore = await call(service, 'GET', `${secrets(projectId)}?deleted=true`, { token: owner.session });
    expect(afterRestore.body.data).toEqual([]);
    await call(service, 'DELETE', path, { token: owner.session });
    const rewritten = await put(owner.session, path, { value: 'third' });
    expect(rewritten.status).toBe(201);
    expect(rewritten.body.data.version).toBe(6);
  });

  it('lists a deleted secret among the deleted for 30 days, then no more', async () => {
    const { owner, projectId } = await projectWithMember();
    const path = secret(projectId, 'GONE');
    await put(owner.session, path, { value: 'v' });
    expect((await call(service, 'DELETE', path, { token: owner.session })).status).toBe(200);
    // A token that outlives the 30 days, since a session would have expired by then.
    const reader = await createToken(service, owner.session, { name: 'reader', scopes: ['read:secrets'], ttlDays: 90 });
    const deletedNames = async () =>
      (await call(service, 'GET', `${secrets(projectId)}?deleted=true`, { token: reader.rawToken })).body.data.map(
        (entry: { name: string }) => entry.name,
      );
    const start = Date.now();
    try {
      setClock({ now: () => new Date(start + 29 * DAY_MS) });
      expect(await deletedNames()).toEqual(['GONE']);
      setClock({ now: () => new Date(start + 31 * DAY_MS) });
      expect(await deletedNames()).toEqual([]);
    } finally {
      setClock();
    }
  });

  it('exports every live secret as {NAME: value}, and records one read of the names and versions', async () => {
    const { owner, member, projectId } = await projectWithMember();
    await put(owner.session, secret(projectId, 'B_KEY'), { value: 'value-of-b' });
    await put(owner.session, secret(projectId, 'A_KEY'), { value: 'a "quoted"\nline' });
    await put(owner.session, secret(projectId, 'B_KEY'), { value: 'value-of-b 2' });
    await put(owner.session, secret(projectId, 'OTHER', 'staging'), { value: 'elsewhere' });
    const exported = await call(service, 'GET', `${base(projectId)}/export`, { token: member.session });
    expect(exported.status).toBe(200);
    expect(exported.body).toEqual({ success: true, data: { A_KEY: 'a "quoted"\nline', B_KEY: 'value-of-b 2' } });
    const reads = await trail(projectId, owner.session, 'secret.read');
    expect(reads).toHaveLength(1);
    expect(reads[0]?.details).toMatchObject({
      environment: 'development',
      secrets: [
        { name: 'A_KEY', version: 1 },
        { name: 'B_KEY', version: 2 },
      ],
    });
    expect(JSON.stringify(reads)).not.toContain('value-of-b');
  });

  it('records each change and each read in the project’s trail, without a value', async () => {
    const { owner, member, projectId } = await projectWithMember();
    const path = secret(projectId, 'API_KEY');
    await put(owner.session, path, { value: 'sk-live-1' });
    await put(owner.session, path, { value: 'sk-live-2' });
    await call(service, 'GET', path, { token: member.session });
    await call(service, 'DELETE', path, { token: owner.session });
    await call(service, 'POST', `${path}/restore`, { token: owner.session, json: { version: 1 } });
    const types = ['secret.created', 'secret.updated', 'secret.read', 'secret.deleted', 'secret.restored'];
    const events = (await Promise.all(types.map((type) => trail(projectId, owner.session, type)))).flat();
    expect(events.map((event) => [event.type, event.details.environment, event.details.secrets])).toEqual([
      ['secret.created', 'development', [{ name: 'API_KEY', version: 1 }]],
      ['secret.updated', 'development', [{ name: 'API_KEY', version: 2 }]],
      ['secret.read', 'development', [{ name: 'API_KEY', version: 2 }]],
      ['secret.deleted', 'development', [{ name: 'API_KEY', version: 3 }]],
      ['secret.restored', 'development', [{ name: 'API_KEY', version: 4 }]],
    ]);
    expect(JSON.stringify(events)).not.toContain('sk-live');
  });

  it('changes many secrets at once with PATCH, and none when one change conflicts', async () => {
    const { owner, projectId } = await projectWithMember();
    await put(owner.session, secret(projectId, 'KEEP'), { value: 'kept' });
    await put(owner.session, secret(projectId, 'DROP'), { value: 'dropped' });
    const changed = await call(service, 'PATCH', secrets(projectId), {
      token: owner.session,
      json: { set: { KEEP: 'kept 2', NEW: 'new' }, delete: ['DROP'], expectedVersions: { KEEP: 1 } },
    });
    expect(changed.status).toBe(200);
    expect(
      changed.body.data.map((entry: Record<string, unknown>) => [entry.name, entry.version, entry.deleted]),
    ).toEqual([
      ['DROP', 2, true],
      ['KEEP', 2, false],
      ['NEW', 1, false],
    ]);
    const conflicting = await call(service, 'PATCH', secrets(projectId), {
      token: owner.session,
      json: { set: { KEEP: 'kept 3', OTHER: 'other' }, delete: ['NEW'], expectedVersions: { KEEP: 1 } },
    });
    expect([conflicting.status, conflicting.body.error]).toEqual([409, ErrorText.secretConflict]);
    const exported = await call(service, 'GET', `${base(projectId)}/export`, { token: owner.session });
    expect(exported.body.data).toEqual({ KEEP: 'kept 2', NEW: 'new' });
    const tooMany = Object.fromEntries(
      Array.from({ length: MAX_PATCH_CHANGES + 1 }, (_unused, index) => [`S${index}`, 'x']),
    );
    const refused = await call(service, 'PATCH', secrets(projectId), { token: owner.session, json: { set: tooMany } });
    expect([refused.status, refused.body.error]).toEqual([400, ErrorText.validation]);
    const most = Object.fromEntries(Array.from({ length: MAX_PATCH_CHANGES }, (_unused, index) => [`S${index}`, 'x']));
    const taken = await call(service, 'PATCH', secrets(projectId), { token: owner.session, json: { set: most } });
    expect(taken.status).toBe(200);
    expect(taken.body.data).toHaveLength(MAX_PATCH_CHANGES);
  });

  it('lets a token read with read:secrets and write with write:secrets, refusing the other scope', async () => {
    const { owner, projectId } = await projectWithMember();
    const reader = await createToken(service, owner.session, { name: 'reader', scopes: ['read:secrets'] });
    const writer = await createToken(service, owner.session, { name: 'writer', scopes: ['write:secrets'] });
    const written = await put(writer.rawToken, secret(projectId, 'FROM_CI'), { value: 'ci' });
    expect(written.status).toBe(201);
    expect(written.body.data.updatedBy.email).toBe(owner.email);
    const read = await call(service, 'GET', secret(projectId, 'FROM_CI'), { token: reader.rawToken });
    expect(read.body.data.value).toBe('ci');
    const readerWrites = await put(reader.rawToken, secret(projectId, 'FROM_CI'), { value: 'no' });
    expect([readerWrites.status, readerWrites.body.error]).toEqual([403, ErrorText.scope]);
    const writerReads = await call(service, 'GET', secret(projectId, 'FROM_CI'), { token: writer.rawToken });
    expect(writerReads.status).toBe(403);
  });

  it(`holds at most ${MAX_SECRETS} live secrets in an environment, refusing one more with 409 and writing nothing`, async () => {
    const { owner, projectId } = await projectWithMember();
    // Forty transactions of 77 items each: on a busy machine DynamoDB Local may take longer than the
    // service's one-second request timeout over one, which is not what this test is about.
    await withPatientClient(async () => {
      for (let start = 0; start < MAX_SECRETS; start += MAX_PATCH_CHANGES) {
        const set = Object.fromEntries(
          Array.from({ length: MAX_PATCH_CHANGES }, (_unused, index) => [`S${start + index}`, 'x']),
        );
        const filled = await call(service, 'PATCH', secrets(projectId), { token: owner.session, json: { set } });
        expect(filled.status).toBe(200);
      }
    });
    const refused = await put(owner.session, secret(projectId, 'ONE_MORE'), { value: 'x' });
    expect([refused.status, refused.body.error]).toEqual([409, ErrorText.secretLimit]);
    const batch = await call(service, 'PATCH', secrets(projectId), {
      token: owner.session,
      json: { set: { S0: 'changed', ONE_MORE: 'x' } },
    });
    expect([batch.status, batch.body.error]).toEqual([409, ErrorText.secretLimit]);
    expect((await call(service, 'GET', secret(projectId, 'S0'), { token: owner.session })).body.data.version).toBe(1);
    expect((await put(owner.session, secret(projectId, 'S0'), { value: 'updated' })).status).toBe(200);
    const swapped = await call(service, 'PATCH', secrets(projectId), {
      token: owner.session,
      json: { set: { ONE_MORE: 'x' }, delete: ['S1'] },
    });
    expect(swapped.status).toBe(200);
    const listed = await call(service, 'GET', secrets(projectId), { token: owner.session });
    expect(listed.body.data).toHaveLength(MAX_SECRETS);
  }, 180_000);

  it(`keeps an export within ${MAX_EXPORT_BYTES} bytes as JSON writes it, refusing a write beyond with 409`, async () => {
    const { owner, projectId } = await projectWithMember();
    // Each control character is written as six in JSON: the largest value takes 393,216 bytes there.
    const value = '\u0000'.repeat(MAX_SECRET_VALUE_BYTES);
    const fit = Math.floor(MAX_EXPORT_BYTES / (6 * MAX_SECRET_VALUE_BYTES + 12));
    for (let index = 0; index < fit; index += 1) {
      expect((await put(owner.session, secret(projectId, `BIG_${index}`), { value })).status).toBe(201);
    }
    const refused = await put(owner.session, secret(projectId, 'BIG_MORE'), { value });
    expect([refused.status, refused.body.error]).toEqual([409, ErrorText.secretLimit]);
    const exported = await call(service, 'GET', `${base(projectId)}/export`, { token: owner.session });
    expect(exported.status).toBe(200);
    expect(Object.keys(exported.body.data)).toHaveLength(fit);
    expect(Buffer.byteLength(exported.text)).toBeLessThan(6 * 1024 * 1024);
    expect(exported.body.data.BIG_0).toBe(value);
  }, 180_000);
});
