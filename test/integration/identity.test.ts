import { ErrorText } from '@contract/errors';
import { SAMPLE_SHARE } from '@contract/route';
import { call } from './harness';
import { type MockIdp, startMockIdp } from './mock-idp';
import { type NpmService, startNpmService } from './npm-start';

/**
 * Identity that cannot be borrowed, black-box: the real `npm start` trusting a third-party OIDC
 * provider (oauth2-mock-server), whose sessions the tests sign with any `sub` and `email`, as an
 * identity provider would issue them when addresses change hands.
 */

let idp: MockIdp;
let service: NpmService;
beforeAll(async () => {
  idp = await startMockIdp();
  service = await startNpmService({ SESSION_ISSUER: idp.issuer, SESSION_AUDIENCE: idp.audience });
}, 120_000);
afterAll(async () => {
  await service?.stop();
  await idp?.stop();
});

let counter = 0;
/** A fresh user of the provider: a unique subject and address. */
const newUser = (label: string) => {
  counter += 1;
  const tag = `${label}-${process.pid}-${counter}-${Date.now().toString(36)}`;
  return { sub: `sub-${tag}`, email: `${tag}@example.com` };
};

/** A session the provider issued for this subject with this verified address (at `iat`, when given). */
const session = (user: { sub: string; email: string; iat?: number }) =>
  idp.sign({
    sub: user.sub,
    email: user.email,
    email_verified: true,
    ...(user.iat !== undefined && { iat: user.iat }),
  });

/** One request to the spawned service, checked against the API document as every reply of the suite is. */
const api = (method: string, path: string, token: string, json?: unknown) =>
  call(service, method, path, { token, json });

const signIn = async (user: { sub: string; email: string }): Promise<string> => {
  const token = await session(user);
  expect((await api('GET', '/api/v1/projects', token)).status).toBe(200);
  return token;
};

const members = (projectId: string) => `/api/v1/projects/${projectId}/members`;

/** Who a members list names, as this file judges it: each member's user id, address and role. */
const whoIn = (reply: { body: { data: { userId: string; email: string; role: string }[] } }) =>
  reply.body.data.map(({ userId, email, role }) => ({ userId, email, role }));

describe('access follows the user id, not the e-mail', () => {
  it('keeps a renamed user’s token away from the next holder of the old address', async () => {
    const a = newUser('a');
    const aSession = await signIn(a);
    const created = await api('POST', '/api/v1/tokens', aSession, { name: 'ci', scopes: ['admin'], ttlDays: null });
    expect(created.status).toBe(201);
    const aToken = created.body.data.rawToken as string;

    // A's address changes at the provider; later B is given A's old address and creates a project.
    await signIn({ sub: a.sub, email: newUser('a-renamed').email });
    const b = { sub: newUser('b').sub, email: a.email };
    const bSession = await signIn(b);
    const project = await api('POST', '/api/v1/projects', bSession, { name: 'B’s project' });
    expect(project.status).toBe(201);
    const projectId = project.body.data.projectId as string;

    const listed = await api('GET', '/api/v1/projects', aToken);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p: { projectId: string }) => p.projectId)).not.toContain(projectId);
    const add = await api('POST', members(projectId), aToken, { email: newUser('x').email, role: 'admin' });
    expect(add.body).toEqual({ success: false, error: ErrorText.projectNotFound });
    const bMembers = await api('GET', members(projectId), aToken);
    expect(bMembers.body).toEqual({ success: false, error: ErrorText.projectNotFound });

    // The token still acts as A: it lists A's own tokens.
    const tokens = await api('GET', '/api/v1/tokens', aToken);
    expect(tokens.body.data.map((t: { id: string }) => t.id)).toEqual([created.body.data.id]);
    expect(whoIn(await api('GET', members(projectId), bSession))).toEqual([
      { userId: b.sub, email: b.email, role: 'owner' },
    ]);
  });

  it('lists a member under the address of their latest verified session; the old address finds nobody', async () => {
    const owner = newUser('owner');
    const ownerSession = await signIn(owner);
    const member = newUser('member');
    await signIn(member);
    const projectId = (await api('POST', '/api/v1/projects', ownerSession, { name: 'Renames' })).body.data.projectId;
    expect((await api('POST', members(projectId), ownerSession, { email: member.email, role: 'member' })).status).toBe(
      200,
    );

    const renamed = { sub: member.sub, email: newUser('member-renamed').email };
    await signIn(renamed);
    expect(whoIn(await api('GET', members(projectId), ownerSession))).toEqual([
      { userId: owner.sub, email: owner.email, role: 'owner' },
      { userId: member.sub, email: renamed.email, role: 'member' },
    ]);
    const other = await api('POST', '/api/v1/projects', ownerSession, { name: 'Other' });
    const byOld = await api('POST', members(other.body.data.projectId), ownerSession, {
      email: member.email,
      role: 'member',
    });
    expect(byOld.body).toEqual({ success: false, error: ErrorText.userNotFound });
    const removeOld = await api('DELETE', `${members(projectId)}/${encodeURIComponent(member.email)}`, ownerSession);
    expect(removeOld.body).toEqual({ success: false, error: ErrorText.memberNotFound });
    const removeNew = await api('DELETE', `${members(projectId)}/${encodeURIComponent(renamed.email)}`, ownerSession);
    expect(removeNew.body).toEqual({ success: true, message: 'Member removed successfully' });
  });
});

describe('a share addressed to an e-mail follows the newest claim on the address', () => {
  const share = async (creator: string, recipients: string[]) => {
    const created = await api('POST', '/api/v1/shares', creator, {
      ciphertext: SAMPLE_SHARE.ciphertext,
      maxViews: 5,
      recipients,
    });
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  };
  const look = (token: string, id: string) => api('GET', `/api/v1/shares/${id}`, token);
  const reveal = (token: string, id: string) => api('POST', `/api/v1/shares/${id}/reveal`, token);
  const notFound = { success: false, error: ErrorText.shareNotFound };

  it('is refused to the previous holder’s older session and token once the address moves, and revealed to the new one', async () => {
    const a = newUser('a');
    // A's session is a minute old by the time the address moves to B.
    const aSession = await session({ ...a, iat: Math.floor(Date.now() / 1000) - 60 });
    expect((await api('GET', '/api/v1/projects', aSession)).status).toBe(200);
    const aToken = (await api('POST', '/api/v1/tokens', aSession, { name: 'ci', scopes: ['read:secrets'] })).body.data
      .rawToken as string;
    const creator = await signIn(newUser('creator'));
    const id = await share(creator, [a.email]);
    expect((await look(aSession, id)).status).toBe(200);

    const b = { sub: newUser('b').sub, email: a.email };
    const bSession = await signIn(b);
    for (const token of [aSession, aToken]) {
      expect((await look(token, id)).body).toEqual(notFound);
      expect((await reveal(token, id)).body).toEqual(notFound);
    }
    const revealed = await reveal(bSession, id);
    expect([revealed.status, revealed.body.data?.viewsLeft]).toEqual([200, 4]);
  });

  it('is revealed to a renamed holder’s token, which still carries the address it was created under', async () => {
    const a = newUser('a');
    const aSession = await signIn(a);
    const aToken = (await api('POST', '/api/v1/tokens', aSession, { name: 'ci', scopes: ['read:secrets'] })).body.data
      .rawToken as string;
    const renamed = { sub: a.sub, email: newUser('a-renamed').email };
    await signIn(renamed);
    const id = await share(await signIn(newUser('creator')), [renamed.email]);
    const revealed = await reveal(aToken, id);
    expect([revealed.status, revealed.body.data?.viewsLeft]).toEqual([200, 4]);
  });
});

describe('session e-mails obey the one e-mail rule', () => {
  it('refuses a KELVIN SIGN address that lower-cases to another user’s, and leaves that user untouched', async () => {
    const kelly = newUser('kelly');
    const kellySession = await signIn(kelly);
    const projectId = (await api('POST', '/api/v1/projects', kellySession, { name: 'Kelly’s' })).body.data.projectId;
    const lookalike = { sub: newUser('attacker').sub, email: kelly.email.replace(/^k/, '\u212A') };
    const attacker = await session(lookalike);

    for (const [method, path, json] of [
      ['GET', '/api/v1/projects', undefined],
      ['GET', members(projectId), undefined],
      ['POST', '/api/v1/tokens', { name: 'x', scopes: ['admin'] }],
    ] as const) {
      const reply = await api(method, path, attacker, json);
      expect({ method, path, status: reply.status, body: reply.body }).toEqual({
        method,
        path,
        status: 401,
        body: { success: false, error: ErrorText.unauthorized },
      });
    }
    // kelly's address still finds kelly.
    const owner = await signIn(newUser('owner'));
    const other = (await api('POST', '/api/v1/projects', owner, { name: 'Adds kelly' })).body.data.projectId;
    expect((await api('POST', members(other), owner, { email: kelly.email, role: 'member' })).status).toBe(200);
    expect(whoIn(await api('GET', members(other), owner))).toContainEqual({
      userId: kelly.sub,
      email: kelly.email,
      role: 'member',
    });
  });

  it.each([
    ['a non-ASCII letter', 'jos\u00e9@example.com'],
    ['two @', 'a@b@example.com'],
    ['inner whitespace', 'ada lovelace@example.com'],
    ['a control character', 'ada\u0007@example.com'],
    ['no domain', 'ada@'],
    ['255 characters', `${'a'.repeat(243)}@example.com`],
  ])('answers the generic 401, never a 503, for a session whose e-mail has %s', async (_label, email) => {
    const token = await idp.sign({ sub: newUser('odd').sub, email, email_verified: true });
    const reply = await api('GET', '/api/v1/projects', token);
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 401,
      body: { success: false, error: ErrorText.unauthorized },
    });
  });

  it('accepts an address in capitals with blanks around, kept trimmed and lower-cased', async () => {
    const user = newUser('Caps');
    const token = await idp.sign({ sub: user.sub, email: `  ${user.email.toUpperCase()}\t`, email_verified: true });
    const projectId = (await api('POST', '/api/v1/projects', token, { name: 'Caps' })).body.data.projectId;
    expect(whoIn(await api('GET', members(projectId), token))).toEqual([
      { userId: user.sub, email: user.email.toLowerCase(), role: 'owner' },
    ]);
  });
});
