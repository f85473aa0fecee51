import type { AuditEvent, SignInRefusal } from '@contract/audit';
import type { AwsRule, OidcRule, StoredTrustRule } from '@contract/trust-rules';
import { originOf, type RequestOrigin, systemOrigin } from '@lambdas/domain/audit';
import { IdentityNotAcceptedError } from '@lambdas/domain/errors';
import type { ServiceAccountRecord, TokenRecord } from '@lambdas/domain/records';
import { type ProofVerdict, type SignInRequest, signInUseCases } from '@lambdas/use-cases/sign-in';
import { eventLike, now, sequentialIds } from './fakes';

const projectId = 'prj_AAAAAAAAAAAAAAAA';
const serviceAccountId = 'sa_0123456789abcdef';
const oidcRule: StoredTrustRule = {
  id: 'tr_0000000000000001',
  kind: 'oidc',
  issuer: 'https://token.actions.githubusercontent.com',
  audience: 'secrets-service',
  subject: 'repo:acme/app:ref:refs/heads/main',
  createdAt: '2026-11-01T00:00:00.000Z',
};
const awsRule: StoredTrustRule = {
  id: 'tr_0000000000000002',
  kind: 'aws',
  principals: ['arn:aws:iam::123456789012:role/deploy'],
  createdAt: '2026-11-01T00:00:00.000Z',
};
const serviceAccount: ServiceAccountRecord = {
  projectId,
  serviceAccountId,
  name: 'deploy',
  description: null,
  access: { production: { level: 'read' } },
  createdAt: '2026-11-01T00:00:00.000Z',
  createdBy: { userId: 'u-1', email: 'ada@example.com' },
};

/** A sign-in's origin, as the middleware makes it for a route without a credential (IPv6 written out in full). */
const origin: RequestOrigin = originOf(systemOrigin.actor, {
  sourceIp: '2001:0db8:0000:0000:0000:0000:0000:0001',
  userAgent: 'jest',
  requestId: 'req-1',
});

const oidcSignIn = (fields: Partial<SignInRequest> = {}): SignInRequest =>
  ({ kind: 'oidc', serviceAccountId, token: 'eyJ.workload.token', ...fields }) as SignInRequest;
const callerIdentityRequest = {
  headers: { Authorization: 'AWS4-HMAC-SHA256 ...' },
  body: 'Action=GetCallerIdentity',
};
const awsSignIn: SignInRequest = {
  kind: 'aws',
  serviceAccountId,
  request: callerIdentityRequest,
  host: 'api.example.com',
};

/**
 * The sign-in's ports in memory: the service account and its rules as given, verifiers answering
 * `verdict`, and every read, proof check, token and event recorded.
 */
const fakeSignIn = (
  options: {
    rules?: readonly StoredTrustRule[] | null;
    account?: ServiceAccountRecord | null;
    verdict?: ProofVerdict;
    stillThere?: boolean;
  } = {},
) => {
  const rules = options.rules === undefined ? [oidcRule, awsRule] : options.rules;
  const account = options.account === undefined ? serviceAccount : options.account;
  const reads: string[] = [];
  const oidcChecks: { token: string; rules: readonly OidcRule[]; now: Date }[] = [];
  const awsChecks: { request: unknown; rules: readonly AwsRule[]; host: string }[] = [];
  const tokens: { token: TokenRecord; projectId: string; event: AuditEvent }[] = [];
  const refusals: { serviceAccountId: string; projectId: string; reason: SignInRefusal; event: AuditEvent }[] = [];
  const verdict = options.verdict ?? {
    accepted: true,
    subject: 'https://token.actions.githubusercontent.com#repo:acme',
  };
  const useCases = signInUseCases({
    getTrustRules: async (id) => {
      reads.push(`rules ${id}`);
      return rules === null ? undefined : { serviceAccountId: id, projectId, rules };
    },
    getServiceAccount: async (project, id) => {
      reads.push(`account ${project} ${id}`);
      return account === null ? undefined : account;
    },
    recordSignIn: async (token, project, event) => {
      if (options.stillThere === false) return false;
      tokens.push({ token, projectId: project, event });
      return true;
    },
    recordRefusal: async (id, project, reason, event) => {
      refusals.push({ serviceAccountId: id, projectId: project, reason, event });
      return true;
    },
    verifyOidc: async (token, given, at) => {
      oidcChecks.push({ token, rules: given, now: at });
      return verdict;
    },
    verifyAws: async (request, given, host) => {
      awsChecks.push({ request, rules: given, host });
      return verdict;
    },
    ids: sequentialIds(),
  });
  return { ...useCases, reads, oidcChecks, awsChecks, tokens, refusals };
};

/** The refusal a sign-in answered: the one 401, and the reason its log line carries. */
const refusalOf = async (attempt: Promise<unknown>): Promise<SignInRefusal> => {
  const error = await attempt.then(
    () => {
      throw new Error('the sign-in was accepted');
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(IdentityNotAcceptedError);
  return (error as IdentityNotAcceptedError).refusal;
};

describe('signIn', () => {
  it('gives an accepted workload a token of the service account’s: its hash stored, bound to the signing-in address, for 15 minutes', async () => {
    const signIn = fakeSignIn();

    const answer = await signIn.signIn(oidcSignIn(), origin, now);

    const expiresAt = new Date(now.getTime() + 15 * 60 * 1000).toISOString();
    expect(answer).toEqual({ token: 'sk_raw1', expiresAt });
    expect(signIn.tokens).toEqual([
      {
        projectId,
        token: {
          tokenId: 'tok1',
          userId: serviceAccountId,
          name: 'oidc sign-in',
          scopes: [],
          secretHash: 'hash1',
          boundIp: '2001:db8::1',
          displayPrefix: 'sk_raw',
          createdAt: now.toISOString(),
          expiresAt,
          lastUsedAt: null,
          serviceAccountProject: projectId,
          subject: 'https://token.actions.githubusercontent.com#repo:acme',
        },
        event: eventLike('service_account.signed_in', {
          actor: expect.objectContaining({
            type: 'serviceAccount',
            id: serviceAccountId,
            name: 'deploy',
            tokenId: 'tok1',
            subject: 'https://token.actions.githubusercontent.com#repo:acme',
          }),
          target: expect.objectContaining({ projectId, serviceAccountId, tokenId: 'tok1' }),
          details: expect.objectContaining({ expiresAt }),
          sourceIp: origin.sourceIp,
        }),
      },
    ]);
    expect(signIn.refusals).toEqual([]);
  });

  it('gives the token the life the workload asked for', async () => {
    const signIn = fakeSignIn();

    const answer = await signIn.signIn(oidcSignIn({ ttlSeconds: 60 }), origin, now);

    expect(answer.expiresAt).toBe(new Date(now.getTime() + 60 * 1000).toISOString());
    expect(signIn.tokens[0]?.token.expiresAt).toBe(answer.expiresAt);
  });

  it('checks an OIDC token against the oidc rules only, at the request’s time', async () => {
    const signIn = fakeSignIn();

    await signIn.signIn(oidcSignIn(), origin, now);

    expect(signIn.oidcChecks).toEqual([{ token: 'eyJ.workload.token', rules: [oidcRule], now }]);
    expect(signIn.awsChecks).toEqual([]);
  });

  it('checks a signed caller-identity request against the aws rules only, for the service’s host', async () => {
    const signIn = fakeSignIn({ verdict: { accepted: true, subject: 'arn:aws:iam::123456789012:role/deploy' } });

    await signIn.signIn(awsSignIn, origin, now);

    expect(signIn.awsChecks).toEqual([{ request: callerIdentityRequest, rules: [awsRule], host: 'api.example.com' }]);
    expect(signIn.oidcChecks).toEqual([]);
    expect(signIn.tokens[0]?.token).toMatchObject({
      name: 'aws sign-in',
      subject: 'arn:aws:iam::123456789012:role/deploy',
    });
  });

  it('refuses what no service account id can be without reading anything', async () => {
    const signIn = fakeSignIn();

    for (const id of ['sa_0123456789abcde', 'xsa_0123456789abcdef', 'sa_0123456789abcdef0', 'sa_0123456789abcde-']) {
      expect(await refusalOf(signIn.signIn(oidcSignIn({ serviceAccountId: id }), origin, now))).toBe('no-rule');
    }
    expect(signIn.reads).toEqual([]);
  });

  it('refuses a service account without trust rules, or one deleted, recording nothing', async () => {
    for (const fake of [fakeSignIn({ rules: null }), fakeSignIn({ account: null })]) {
      expect(await refusalOf(fake.signIn(oidcSignIn(), origin, now))).toBe('no-rule');
      expect([fake.refusals, fake.tokens, fake.oidcChecks]).toEqual([[], [], []]);
    }
  });

  it('reads the service account in the project its rules belong to', async () => {
    const signIn = fakeSignIn();

    await signIn.signIn(oidcSignIn(), origin, now);

    expect(signIn.reads).toEqual([`rules ${serviceAccountId}`, `account ${projectId} ${serviceAccountId}`]);
  });

  it('refuses a proof of a kind the service account has no rule for, recorded as its denial, checking nothing', async () => {
    const onlyAws = fakeSignIn({ rules: [awsRule] });
    const onlyOidc = fakeSignIn({ rules: [oidcRule] });

    expect(await refusalOf(onlyAws.signIn(oidcSignIn(), origin, now))).toBe('no-rule');
    expect(await refusalOf(onlyOidc.signIn(awsSignIn, origin, now))).toBe('no-rule');

    for (const fake of [onlyAws, onlyOidc]) {
      expect([fake.oidcChecks, fake.awsChecks, fake.tokens]).toEqual([[], [], []]);
      expect(fake.refusals).toEqual([
        {
          serviceAccountId,
          projectId,
          reason: 'no-rule',
          event: eventLike('service_account.denied', {
            actor: expect.objectContaining({ type: 'serviceAccount', id: serviceAccountId, name: 'deploy' }),
            target: expect.objectContaining({ projectId, serviceAccountId, tokenId: null }),
            details: expect.objectContaining({ reason: 'no-rule' }),
          }),
        },
      ]);
    }
  });

  it('refuses a proof its rules do not accept with the verifier’s reason, recorded, and stores no token', async () => {
    const signIn = fakeSignIn({ verdict: { accepted: false, reason: 'subject' } });

    expect(await refusalOf(signIn.signIn(oidcSignIn(), origin, now))).toBe('subject');

    expect(signIn.tokens).toEqual([]);
    expect(signIn.refusals).toEqual([
      expect.objectContaining({
        reason: 'subject',
        event: eventLike('service_account.denied', {
          actor: expect.objectContaining({ id: serviceAccountId, tokenId: null, subject: null }),
          details: expect.objectContaining({ reason: 'subject' }),
        }),
      }),
    ]);
  });

  it('refuses an accepted workload whose address is unknown, as a token must be bound to one', async () => {
    const signIn = fakeSignIn();

    expect(await refusalOf(signIn.signIn(oidcSignIn(), { ...origin, sourceIp: null }, now))).toBe('malformed');
    expect(signIn.tokens).toEqual([]);
  });

  it('refuses when the service account was deleted while its token was being stored', async () => {
    const signIn = fakeSignIn({ stillThere: false });

    expect(await refusalOf(signIn.signIn(oidcSignIn(), origin, now))).toBe('no-rule');
  });
});
