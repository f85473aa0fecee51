import { ErrorText } from '@contract/errors';
import { GITHUB_ACTIONS_ISSUER, MAX_TRUST_RULES } from '@contract/trust-rules';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { signedCallerIdentityRequest } from '../../client/aws-sign-in';
import type { LocalService } from '../../local/service';
import { call, createProject, type Reply, sessionFor, startService, uniqueEmail } from './harness';

/**
 * Trust rules and the sign-ins without a stored secret, end to end through the local gateway: the
 * local workload issuer's tokens (OIDC) and requests signed with the STS stand-in's key (AWS) against
 * DynamoDB Local. Every refusal answers the same 401 and records why in the project's trail.
 */

let service: LocalService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
});

const refusal = (reply: Reply) => [reply.status, reply.body.error];
const secretPath = (projectId: string, environment: string) =>
  `/api/v1/projects/${projectId}/environments/${environment}/secrets/API_KEY`;
const SUBJECT = 'repo:acme/app:ref:refs/heads/main';
const AUDIENCE = 'secrets-service';

/** An owner's project with a secret in production and staging, and a service account reading production. */
const world = async () => {
  const email = uniqueEmail('owner');
  const session = await sessionFor(service, email);
  const owner = { email, session, userId: String(decodeJwt(session).sub) };
  const projectId = await createProject(service, session);
  for (const environment of ['production', 'staging']) {
    const put = await call(service, 'PUT', secretPath(projectId, environment), {
      token: session,
      json: { value: `${environment}-value` },
    });
    expect(put.status).toBe(201);
  }
  const made = await call(service, 'POST', `/api/v1/projects/${projectId}/service-accounts`, {
    token: session,
    json: { name: 'deploy', access: { production: 'read' } },
  });
  const serviceAccountId = made.body.data.id as string;
  const rules = `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}/trust-rules`;
  return { owner, projectId, serviceAccountId, rules };
};

const addRule = async (rules: string, session: string, json: unknown) => {
  const reply = await call(service, 'POST', rules, { token: session, json });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
};

const oidcRule = (claims?: Record<string, string>) => ({
  kind: 'oidc',
  issuer: service.workload.issuer,
  audience: AUDIENCE,
  subject: 'repo:acme/*:ref:refs/heads/main',
  ...(claims && { claims }),
});

const signInOidc = (serviceAccountId: string, token: string, json: Record<string, unknown> = {}) =>
  call(service, 'POST', '/api/v1/auth/oidc', { json: { serviceAccountId, token, ...json } });

const now = () => Math.floor(Date.now() / 1000);

describe('trust rules', () => {
  it('are added, listed and deleted by an owner, each with its event', async () => {
    const { owner, projectId, rules } = await world();
    const github = await call(service, 'POST', rules, {
      token: owner.session,
      json: { kind: 'oidc', issuer: GITHUB_ACTIONS_ISSUER, audience: AUDIENCE, subject: SUBJECT },
    });
    expect(github.status).toBe(201);
    expect(github.body.data).toEqual({
      id: expect.stringMatching(/^tr_/),
      kind: 'oidc',
      issuer: GITHUB_ACTIONS_ISSUER,
      audience: AUDIENCE,
      subject: SUBJECT,
      createdAt: expect.any(String),
    });
    const aws = await addRule(rules, owner.session, {
      kind: 'aws',
      principals: ['arn:aws:iam::123456789012:role/ci'],
    });
    const listed = await call(service, 'GET', rules, { token: owner.session });
    expect(listed.body.data.map((rule: { id: string }) => rule.id)).toEqual([github.body.data.id, aws.id]);
    expect((await call(service, 'DELETE', `${rules}/${aws.id}`, { token: owner.session })).status).toBe(200);
    expect(refusal(await call(service, 'DELETE', `${rules}/${aws.id}`, { token: owner.session }))).toEqual([
      404,
      ErrorText.trustRuleNotFound,
    ]);
    const trail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events`, { token: owner.session });
    const types = trail.body.data.map((event: { type: string }) => event.type);
    expect(types.filter((type: string) => type.startsWith('service_account.trust_rule'))).toEqual([
      'service_account.trust_rule.deleted',
      'service_account.trust_rule.added',
      'service_account.trust_rule.added',
    ]);
  });

  it.each([
    ['an http issuer that is not loopback', { issuer: 'http://issuer.example.com' }, 'issuer'],
    ['an issuer at an IP address', { issuer: 'https://203.0.113.9' }, 'issuer'],
    ['a subject of wildcards only', { subject: '*:*' }, 'subject'],
    ['an empty audience', { audience: '' }, 'audience'],
  ])('refuses a rule with %s (400)', async (_label, change, field) => {
    const { owner, rules } = await world();
    const reply = await call(service, 'POST', rules, {
      token: owner.session,
      json: { kind: 'oidc', issuer: GITHUB_ACTIONS_ISSUER, audience: AUDIENCE, subject: SUBJECT, ...change },
    });
    expect(refusal(reply)).toEqual([400, ErrorText.validation]);
    expect(reply.body.details.map((detail: { path: string }) => detail.path)).toContain(field);
  });

  it(`holds a service account to ${MAX_TRUST_RULES} rules`, async () => {
    const { owner, rules } = await world();
    for (let index = 0; index < MAX_TRUST_RULES; index += 1) {
      await addRule(rules, owner.session, { kind: 'aws', principals: [`arn:aws:iam::123456789012:role/ci-${index}`] });
    }
    const over = await call(service, 'POST', rules, {
      token: owner.session,
      json: { kind: 'aws', principals: ['arn:aws:iam::123456789012:role/more'] },
    });
    expect(refusal(over)).toEqual([409, ErrorText.trustRuleLimit]);
  });
});

describe('POST /api/v1/auth/oidc', () => {
  it('answers a short-lived token of the service account, which reads what its access reaches', async () => {
    const { owner, projectId, serviceAccountId, rules } = await world();
    await addRule(rules, owner.session, oidcRule());
    const workload = await service.workload.issue({ sub: SUBJECT, aud: AUDIENCE });
    const before = Date.now();
    const reply = await signInOidc(serviceAccountId, workload);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ token: expect.stringMatching(/^svc_live_/), expiresAt: expect.any(String) });
    const lives = Date.parse(reply.body.data.expiresAt) - before;
    expect(lives).toBeGreaterThan(14 * 60_000);
    expect(lives).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    const token = reply.body.data.token as string;
    const read = await call(service, 'GET', secretPath(projectId, 'production'), { token });
    expect(read.body.data.value).toBe('production-value');
    expect(refusal(await call(service, 'GET', secretPath(projectId, 'staging'), { token }))).toEqual([
      403,
      ErrorText.environmentAccess,
    ]);
    // Bound to the address that signed in.
    expect(
      refusal(await call(service, 'GET', secretPath(projectId, 'production'), { token, from: '127.0.0.2' })),
    ).toEqual([403, ErrorText.wrongIp]);
    const trail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events`, { token: owner.session });
    const signedIn = trail.body.data.find((event: { type: string }) => event.type === 'service_account.signed_in');
    expect(signedIn.actor).toEqual({
      type: 'serviceAccount',
      id: serviceAccountId,
      name: 'deploy',
      userId: null,
      email: null,
      via: 'token',
      tokenId: expect.any(String),
      subject: `${service.workload.issuer}#${SUBJECT}`,
    });
    const read2 = trail.body.data.find((event: { type: string }) => event.type === 'secret.read');
    expect(read2.actor.subject).toBe(`${service.workload.issuer}#${SUBJECT}`);
    expect(JSON.stringify(trail.body)).not.toContain(token);
  });

  it('lives as long as asked, up to an hour', async () => {
    const { owner, serviceAccountId, rules } = await world();
    await addRule(rules, owner.session, oidcRule());
    const workload = await service.workload.issue({ sub: SUBJECT, aud: AUDIENCE });
    const short = await signInOidc(serviceAccountId, workload, { ttlSeconds: 120 });
    expect(Date.parse(short.body.data.expiresAt) - Date.now()).toBeLessThanOrEqual(120_000);
    expect(refusal(await signInOidc(serviceAccountId, workload, { ttlSeconds: 3601 }))).toEqual([
      400,
      ErrorText.validation,
    ]);
  });

  describe('refuses with one 401, recording why', () => {
    const refusedWith = async (
      token: (context: Awaited<ReturnType<typeof world>>) => Promise<string>,
      reason: string,
      rule: unknown = oidcRule({ environment: 'production' }),
    ) => {
      const context = await world();
      await addRule(context.rules, context.owner.session, rule);
      const reply = await signInOidc(context.serviceAccountId, await token(context));
      expect(refusal(reply)).toEqual([401, ErrorText.identityNotAccepted]);
      const trail = await call(service, 'GET', `/api/v1/projects/${context.projectId}/audit-events`, {
        token: context.owner.session,
      });
      const denied = trail.body.data.filter((event: { type: string }) => event.type === 'service_account.denied');
      expect(denied.map((event: { details: { reason: string } }) => event.details.reason)).toEqual([reason]);
    };
    const claims = { sub: SUBJECT, aud: AUDIENCE, environment: 'production' };
    const signed = (payload: Record<string, unknown>, header: Record<string, unknown> = {}) =>
      service.workload.sign({ iss: service.workload.issuer, iat: now(), exp: now() + 300, ...payload, ...header });

    it('for another audience', () => refusedWith(() => signed({ ...claims, aud: 'other' }), 'audience'));
    it('for another subject', () =>
      refusedWith(() => signed({ ...claims, sub: 'repo:evil/app:ref:refs/heads/main' }), 'subject'));
    it('for a subject whose wildcard would cross a colon', () =>
      refusedWith(() => signed({ ...claims, sub: 'repo:acme/app:x:ref:refs/heads/main' }), 'subject'));
    it('for another value of a required claim', () =>
      refusedWith(() => signed({ ...claims, environment: 'staging' }), 'claim'));
    it('for an expired token (beyond 60 s of skew)', () =>
      refusedWith(() => signed({ ...claims, iat: now() - 600, exp: now() - 61 }), 'expired'));
    it('for a token not valid yet (nbf ahead)', () =>
      refusedWith(() => signed({ ...claims, nbf: now() + 120 }), 'not-yet-valid'));
    it('for another issuer', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      await refusedWith(
        () =>
          new SignJWT({ ...claims })
            .setProtectedHeader({ alg: 'ES256', kid: 'other' })
            .setIssuer('https://evil.example.com')
            .setIssuedAt()
            .setExpirationTime('5m')
            .sign(privateKey),
        'issuer',
      );
    });
    it('for alg none', () =>
      refusedWith(async () => {
        const encode = (part: unknown) => Buffer.from(JSON.stringify(part)).toString('base64url');
        return `${encode({ alg: 'none' })}.${encode({ iss: service.workload.issuer, ...claims, iat: now(), exp: now() + 300 })}.`;
      }, 'algorithm'));
    it('for HS256 signed with the issuer’s public key', () =>
      refusedWith(async () => {
        const jwk = service.workload.jwks.keys[0] ?? {};
        const secret = new TextEncoder().encode(JSON.stringify(jwk));
        return new SignJWT({ ...claims })
          .setProtectedHeader({ alg: 'HS256', kid: jwk.kid })
          .setIssuer(service.workload.issuer)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(secret);
      }, 'algorithm'));
    it('for a key the issuer does not publish (unknown kid)', () =>
      refusedWith(async () => {
        const { privateKey } = await generateKeyPair('ES256');
        return new SignJWT({ ...claims })
          .setProtectedHeader({ alg: 'ES256', kid: 'not-published' })
          .setIssuer(service.workload.issuer)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
      }, 'unknown-key'));
    it('for a service account with no rule of the kind', () =>
      refusedWith(() => signed(claims), 'no-rule', { kind: 'aws', principals: ['arn:aws:iam::123456789012:role/ci'] }));
  });

  it('refuses a deleted service account, and every token it got stops with it', async () => {
    const { owner, projectId, serviceAccountId, rules } = await world();
    await addRule(rules, owner.session, oidcRule());
    const workload = await service.workload.issue({ sub: SUBJECT, aud: AUDIENCE });
    const got = (await signInOidc(serviceAccountId, workload)).body.data.token as string;
    const deleted = await call(
      service,
      'DELETE',
      `/api/v1/projects/${projectId}/service-accounts/${serviceAccountId}`,
      {
        token: owner.session,
      },
    );
    expect(deleted.status).toBe(200);
    expect(refusal(await signInOidc(serviceAccountId, workload))).toEqual([401, ErrorText.identityNotAccepted]);
    expect(refusal(await call(service, 'GET', secretPath(projectId, 'production'), { token: got }))).toEqual([
      401,
      ErrorText.unauthorized,
    ]);
  });

  it('refuses an unknown or malformed service account id the same way', async () => {
    const workload = await service.workload.issue({ sub: SUBJECT, aud: AUDIENCE });
    for (const id of ['sa_ZZZZZZZZZZZZZZZZ', 'not-an-id']) {
      expect(refusal(await signInOidc(id, workload))).toEqual([401, ErrorText.identityNotAccepted]);
    }
  });
});

describe('POST /api/v1/auth/aws', () => {
  const host = () => new URL(service.baseUrl).host;
  const signInAws = (serviceAccountId: string, request: unknown) =>
    call(service, 'POST', '/api/v1/auth/aws', { json: { serviceAccountId, request } });
  const signedRequest = (options: { service?: string; secret?: string } = {}) =>
    signedCallerIdentityRequest({
      credentials: {
        accessKeyId: service.sts.key.accessKeyId,
        secretAccessKey: options.secret ?? service.sts.key.secretAccessKey,
      },
      service: options.service ?? host(),
    });
  const withRole = async (role: string) => {
    const context = await world();
    await addRule(context.rules, context.owner.session, { kind: 'aws', principals: [role] });
    return context;
  };

  it('accepts an assumed role of a role its rule names, and the token reads what its access reaches', async () => {
    const { projectId, serviceAccountId } = await withRole('arn:aws:iam::000000000000:role/local-ci');
    const reply = await signInAws(serviceAccountId, await signedRequest());
    expect(reply.status).toBe(200);
    const read = await call(service, 'GET', secretPath(projectId, 'production'), { token: reply.body.data.token });
    expect(read.body.data.value).toBe('production-value');
  });

  it.each([
    ['another role', 'arn:aws:iam::000000000000:role/other', {}, 'principal'],
    ['a bad signature', 'arn:aws:iam::000000000000:role/local-ci', { secret: 'wrong-secret' }, 'signature'],
    [
      'a request signed for another service',
      'arn:aws:iam::000000000000:role/local-ci',
      { service: 'secrets.example.com' },
      'service-header',
    ],
  ])('refuses %s with one 401, recording why', async (_label, role, options, reason) => {
    const { owner, projectId, serviceAccountId } = await withRole(role);
    const reply = await signInAws(serviceAccountId, await signedRequest(options));
    expect(refusal(reply)).toEqual([401, ErrorText.identityNotAccepted]);
    const trail = await call(service, 'GET', `/api/v1/projects/${projectId}/audit-events`, { token: owner.session });
    const denied = trail.body.data.filter((event: { type: string }) => event.type === 'service_account.denied');
    expect(denied.map((event: { details: { reason: string } }) => event.details.reason)).toEqual([reason]);
  });

  it('refuses a request without the header naming this service', async () => {
    const { serviceAccountId } = await withRole('arn:aws:iam::000000000000:role/local-ci');
    const signed = await signedRequest();
    const { 'X-Secrets-Service': _dropped, ...headers } = signed.headers;
    expect(refusal(await signInAws(serviceAccountId, { ...signed, headers }))).toEqual([
      401,
      ErrorText.identityNotAccepted,
    ]);
  });
});
