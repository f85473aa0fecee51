import { ErrorText } from '@contract/errors';
import { MAX_OPEN_CHANGE_REQUESTS } from '@contract/limits';
import type { LocalService } from '../../local/service';
import { arrange, call, createProject, createToken, signedIn, startService } from './harness';

/**
 * Change requests, black box against `npm start`: proposed by anyone with write in the environment,
 * approved by other owners and admins (or forced by the owner), applied all or nothing with
 * check-and-set, every step an audit event.
 */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const project = (projectId: string) => `/api/v1/projects/${projectId}`;
const environment = (projectId: string, name = 'production') => `${project(projectId)}/environments/${name}`;
const requests = (projectId: string, name = 'production') => `${environment(projectId, name)}/change-requests`;
const secret = (projectId: string, name: string, env = 'production') =>
  `${environment(projectId, env)}/secrets/${name}`;

/** An owner's project, production protected (approvals as given) and holding API_KEY at version 1, a member and two admins. */
const protectedProject = async (approvals = 1) => {
  const owner = await signedIn(service, 'owner');
  const member = await signedIn(service, 'member');
  const admin = await signedIn(service, 'admin');
  const second = await signedIn(service, 'second');
  const projectId = await createProject(service, owner.session);
  for (const [who, role] of [
    [member, 'member'],
    [admin, 'admin'],
    [second, 'admin'],
  ] as const) {
    const added = await arrange(service, 'POST', `${project(projectId)}/members`, {
      token: owner.session,
      json: { email: who.email, role },
    });
    expect(added.status).toBe(200);
  }
  expect(
    (await arrange(service, 'PUT', secret(projectId, 'API_KEY'), { token: owner.session, json: { value: 'v1' } }))
      .status,
  ).toBe(201);
  const protect = await arrange(service, 'PATCH', environment(projectId), {
    token: owner.session,
    json: { protected: true, approvals },
  });
  expect(protect.status).toBe(200);
  return { owner, member, admin, second, projectId };
};

const propose = (projectId: string, token: string, json: unknown) =>
  call(service, 'POST', requests(projectId), { token, json });
const step = (projectId: string, id: string, action: string, token: string, json?: unknown) =>
  call(service, 'POST', `${requests(projectId)}/${id}/${action}`, { token, json });
const storedSecret = async (projectId: string, name: string, token: string) =>
  (await call(service, 'GET', secret(projectId, name), { token })).body.data;
const trail = async (projectId: string, token: string) =>
  (await call(service, 'GET', `${project(projectId)}/audit-events?limit=100`, { token })).body.data as {
    type: string;
    target: { changeRequestId: string | null };
    details: Record<string, unknown>;
  }[];

describe('change requests', () => {
  it('lets a member propose, without values in the answer, and another admin approve: applied at once, with its events', async () => {
    const { owner, member, admin, projectId } = await protectedProject();
    const proposed = await propose(projectId, member.session, {
      set: { API_KEY: 'v2', NEW_KEY: 'fresh' },
      note: 'Rotate the key',
    });
    expect(proposed.status).toBe(201);
    expect(proposed.body.data).toMatchObject({
      id: expect.stringMatching(/^chg_[0-9A-Za-z]{16}$/),
      environment: 'production',
      status: 'open',
      author: { email: member.email },
      note: 'Rotate the key',
      changes: [
        { name: 'API_KEY', action: 'set', fromVersion: 1, restoreVersion: null },
        { name: 'NEW_KEY', action: 'set', fromVersion: 0, restoreVersion: null },
      ],
      approvals: [],
      approvalsNeeded: 1,
    });
    expect(proposed.text).not.toContain('v2');
    expect(proposed.text).not.toContain('fresh');
    const { id } = proposed.body.data;
    // Nothing is written before it is approved.
    expect((await storedSecret(projectId, 'API_KEY', owner.session)).value).toBe('v1');
    const values = await call(service, 'GET', `${requests(projectId)}/${id}/values`, { token: admin.session });
    expect(values.body.data).toEqual({ API_KEY: 'v2', NEW_KEY: 'fresh' });
    const approved = await step(projectId, id, 'approve', admin.session);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'applied', closedBy: { email: admin.email } });
    expect(await storedSecret(projectId, 'API_KEY', owner.session)).toMatchObject({
      value: 'v2',
      version: 2,
      updatedBy: { email: member.email },
    });
    expect((await storedSecret(projectId, 'NEW_KEY', owner.session)).value).toBe('fresh');
    const events = (await trail(projectId, owner.session)).filter((event) => event.target.changeRequestId === id);
    expect(events.map((event) => event.type).sort()).toEqual([
      'change_request.applied',
      'change_request.approved',
      'change_request.created',
      'secret.read',
    ]);
    const types = (await trail(projectId, owner.session)).map((event) => event.type);
    expect(types.filter((type) => type === 'secret.updated' || type === 'secret.created')).toHaveLength(3);
  });

  it('refuses an author their own approval, a plain member any, and a token every approval', async () => {
    const { owner, member, admin, projectId } = await protectedProject();
    const { id } = (await propose(projectId, admin.session, { set: { API_KEY: 'x' } })).body.data;
    const own = await step(projectId, id, 'approve', admin.session);
    expect([own.status, own.body.error]).toEqual([403, ErrorText.ownApproval]);
    const byMember = await step(projectId, id, 'approve', member.session);
    expect([byMember.status, byMember.body.error]).toEqual([403, ErrorText.projectRole]);
    const token = await createToken(service, owner.session);
    const byToken = await step(projectId, id, 'approve', token.rawToken);
    expect([byToken.status, byToken.body.error]).toEqual([403, ErrorText.sessionRequired]);
    const ownToken = await createToken(service, admin.session);
    // A token proposes as its owner: its owner may not approve what it proposed.
    const tokenProposal = await propose(projectId, ownToken.rawToken, { delete: ['API_KEY'] });
    expect(tokenProposal.status).toBe(201);
    const selfApproval = await step(projectId, tokenProposal.body.data.id, 'approve', admin.session);
    expect([selfApproval.status, selfApproval.body.error]).toEqual([403, ErrorText.ownApproval]);
  });

  it('waits for the environment’s number of approvals, from different people', async () => {
    const { owner, member, admin, second, projectId } = await protectedProject(2);
    const { id } = (await propose(projectId, member.session, { set: { API_KEY: 'two' } })).body.data;
    const first = await step(projectId, id, 'approve', admin.session);
    expect(first.body.data).toMatchObject({ status: 'open', approvalsNeeded: 2, approvals: [{ email: admin.email }] });
    const again = await step(projectId, id, 'approve', admin.session);
    expect(again.body.data).toMatchObject({ status: 'open', approvals: [{ email: admin.email }] });
    expect((await storedSecret(projectId, 'API_KEY', owner.session)).value).toBe('v1');
    const last = await step(projectId, id, 'approve', second.session);
    expect(last.body.data.status).toBe('applied');
    expect((await storedSecret(projectId, 'API_KEY', owner.session)).value).toBe('two');
  });

  it('writes nothing when a secret moved since the proposal: the request is conflicted (409 out of date)', async () => {
    const { owner, member, admin, projectId } = await protectedProject();
    const { id } = (await propose(projectId, member.session, { set: { API_KEY: 'mine', OTHER: 'o' } })).body.data;
    const moving = (await propose(projectId, owner.session, { set: { API_KEY: 'theirs' } })).body.data.id;
    expect((await step(projectId, moving, 'approve', admin.session)).body.data.status).toBe('applied');
    const stale = await step(projectId, id, 'approve', admin.session);
    expect([stale.status, stale.body.error]).toEqual([409, ErrorText.changeRequestOutOfDate]);
    expect((await storedSecret(projectId, 'API_KEY', owner.session)).value).toBe('theirs');
    expect((await call(service, 'GET', secret(projectId, 'OTHER'), { token: owner.session })).status).toBe(404);
    const shown = await call(service, 'GET', `${requests(projectId)}/${id}`, { token: member.session });
    expect(shown.body.data.status).toBe('conflicted');
    const closed = await step(projectId, id, 'approve', owner.session);
    expect([closed.status, closed.body.error]).toEqual([409, ErrorText.changeRequestNotOpen]);
  });

  it('lets the owner apply an open request without approvals, with a reason, recorded as forced', async () => {
    const owner = await signedIn(service, 'solo');
    const projectId = await createProject(service, owner.session);
    await arrange(service, 'PATCH', environment(projectId), { token: owner.session, json: { protected: true } });
    const { id } = (await propose(projectId, owner.session, { set: { HOTFIX: 'now' } })).body.data;
    const noReason = await step(projectId, id, 'apply', owner.session, {});
    expect(noReason.status).toBe(400);
    const forced = await step(projectId, id, 'apply', owner.session, { reason: 'Outage; nobody else is awake' });
    expect(forced.status).toBe(200);
    expect(forced.body.data).toMatchObject({ status: 'applied', forcedReason: 'Outage; nobody else is awake' });
    expect((await storedSecret(projectId, 'HOTFIX', owner.session)).value).toBe('now');
    const forcedEvent = (await trail(projectId, owner.session)).find((event) => event.type === 'change_request.forced');
    expect(forcedEvent?.details).toMatchObject({ note: 'Outage; nobody else is awake', environment: 'production' });
  });

  it('lets only the owner force a request', async () => {
    const { member, admin, projectId } = await protectedProject();
    const { id } = (await propose(projectId, member.session, { set: { API_KEY: 'x' } })).body.data;
    const byAdmin = await step(projectId, id, 'apply', admin.session, { reason: 'because' });
    expect([byAdmin.status, byAdmin.body.error]).toEqual([403, ErrorText.projectRole]);
  });

  it('lets owners and admins reject and only the author cancel; a closed request takes no further step', async () => {
    const { owner, member, admin, projectId } = await protectedProject();
    const first = (await propose(projectId, member.session, { set: { API_KEY: 'x' } })).body.data.id;
    const byMember = await step(projectId, first, 'reject', member.session);
    expect([byMember.status, byMember.body.error]).toEqual([403, ErrorText.projectRole]);
    const notAuthor = await step(projectId, first, 'cancel', admin.session);
    expect([notAuthor.status, notAuthor.body.error]).toEqual([403, ErrorText.notAuthor]);
    expect((await step(projectId, first, 'reject', admin.session)).body.data.status).toBe('rejected');
    const second = (await propose(projectId, member.session, { delete: ['API_KEY'] })).body.data.id;
    expect((await step(projectId, second, 'cancel', member.session)).body.data.status).toBe('cancelled');
    for (const [id, action] of [
      [first, 'approve'],
      [second, 'reject'],
      [first, 'cancel'],
    ] as const) {
      const refused = await step(projectId, id, action, action === 'cancel' ? member.session : owner.session);
      expect([refused.status, refused.body.error]).toEqual([409, ErrorText.changeRequestNotOpen]);
    }
    const listed = await call(service, 'GET', `${requests(projectId)}?status=open`, { token: owner.session });
    expect(listed.body.data).toEqual([]);
    const all = await call(service, 'GET', requests(projectId), { token: owner.session });
    expect(all.body.data.map((request: { id: string; status: string }) => [request.id, request.status])).toEqual([
      [second, 'cancelled'],
      [first, 'rejected'],
    ]);
    expect((await storedSecret(projectId, 'API_KEY', owner.session)).value).toBe('v1');
  });

  it('checks a proposal against what the environment holds, and the proposer’s access', async () => {
    const { owner, member, projectId } = await protectedProject();
    const missing = await propose(projectId, member.session, { delete: ['NOPE'] });
    expect([missing.status, missing.body.error]).toEqual([404, ErrorText.secretNotFound]);
    const stale = await propose(projectId, member.session, { set: { API_KEY: 'x' }, expectedVersions: { API_KEY: 5 } });
    expect([stale.status, stale.body.error]).toEqual([409, ErrorText.secretConflict]);
    const twice = await propose(projectId, member.session, { set: { API_KEY: 'x' }, delete: ['API_KEY'] });
    expect(twice.status).toBe(400);
    const unknown = await call(service, 'GET', `${requests(projectId)}/chg_AAAAAAAAAAAAAAAA`, { token: owner.session });
    expect([unknown.status, unknown.body.error]).toEqual([404, ErrorText.changeRequestNotFound]);
    const malformed = await call(service, 'GET', `${requests(projectId)}/nope`, { token: owner.session });
    expect([malformed.status, malformed.body.error]).toEqual([404, ErrorText.changeRequestNotFound]);
    await arrange(service, 'PUT', `${project(projectId)}/members/${encodeURIComponent(member.email)}/access`, {
      token: owner.session,
      json: { access: { production: 'read' } },
    });
    const readOnly = await propose(projectId, member.session, { set: { API_KEY: 'x' } });
    expect([readOnly.status, readOnly.body.error]).toEqual([403, ErrorText.environmentAccess]);
    expect((await call(service, 'GET', requests(projectId), { token: member.session })).status).toBe(200);
  });

  it('restores a version through a request', async () => {
    const { owner, member, admin, projectId } = await protectedProject();
    const change = (await propose(projectId, member.session, { set: { API_KEY: 'v2' } })).body.data.id;
    await step(projectId, change, 'approve', admin.session);
    const restore = await propose(projectId, member.session, { restore: [{ name: 'API_KEY', version: 1 }] });
    expect(restore.body.data.changes).toEqual([
      { name: 'API_KEY', action: 'restore', fromVersion: 2, restoreVersion: 1 },
    ]);
    expect((await step(projectId, restore.body.data.id, 'approve', admin.session)).body.data.status).toBe('applied');
    expect(await storedSecret(projectId, 'API_KEY', owner.session)).toMatchObject({ value: 'v1', version: 3 });
  });

  it(`holds an environment to ${MAX_OPEN_CHANGE_REQUESTS} open requests, even when the last are proposed at once`, async () => {
    const { member, projectId } = await protectedProject();
    const proposeKey = (index: number) =>
      arrange(service, 'POST', requests(projectId), {
        token: member.session,
        json: { set: { [`KEY_${index}`]: 'x' } },
      });
    for (let index = 0; index < MAX_OPEN_CHANGE_REQUESTS - 5; index += 1) {
      expect((await proposeKey(index)).status).toBe(201);
    }
    const replies = await Promise.all(Array.from({ length: 10 }, (_, index) => proposeKey(100 + index)));
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(5);
    expect(replies.filter((reply) => reply.status === 409).map((reply) => reply.body.error)).toEqual(
      Array(5).fill(ErrorText.changeRequestLimit),
    );
    const open = await call(service, 'GET', `${requests(projectId)}?status=open`, { token: member.session });
    expect(open.body.data).toHaveLength(MAX_OPEN_CHANGE_REQUESTS);
  }, 120_000);
});
