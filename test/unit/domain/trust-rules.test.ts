import {
  GITHUB_ACTIONS_ISSUER,
  githubActionsSubjects,
  MAX_TRUST_RULES,
  storedTrustRule,
  type TrustRuleBody,
  trustRuleBody,
  trustRuleBodyFor,
} from '@contract/trust-rules';
import {
  claimsMatch,
  issuerAllowed,
  isWildcardOnly,
  newTrustRuleId,
  ruleProblem,
  subjectMatches,
} from '@lambdas/domain/trust-rules';

const deployed = { allowLoopbackHttp: false };
const local = { allowLoopbackHttp: true };

describe('issuerAllowed', () => {
  it.each([
    GITHUB_ACTIONS_ISSUER,
    'https://gitlab.com',
    'https://accounts.google.com',
    'https://oidc.example.com/tenant/abc',
    'https://oidc.example.com:8443/x/',
    'https://localhost',
  ])('allows %s', (issuer) => {
    expect(issuerAllowed(issuer, deployed)).toBe(true);
    expect(issuerAllowed(issuer, local)).toBe(true);
  });

  it.each([
    ['http to a name', 'http://token.actions.githubusercontent.com'],
    ['an IPv4 literal', 'https://8.8.8.8'],
    ['an IPv4 literal with a port', 'https://8.8.8.8:443/x'],
    ['a decimal IPv4 shorthand', 'https://134744072'],
    ['a hex IPv4 shorthand', 'https://0x8.0x8.0x8.0x8'],
    ['a short IPv4 form', 'https://127.1'],
    ['an octal IPv4 form', 'https://010.0.0.1'],
    ['an IPv6 literal', 'https://[2001:4860:4860::8888]'],
    ['an IPv4-mapped IPv6 literal', 'https://[::ffff:127.0.0.1]'],
    ['a user', 'https://user@issuer.example.com'],
    ['a user and password', 'https://user:pw@issuer.example.com'],
    ['a query', 'https://issuer.example.com/?a=b'],
    ['an empty query', 'https://issuer.example.com/?'],
    ['a fragment', 'https://issuer.example.com/#x'],
    ['not a URL', 'issuer.example.com'],
    ['another scheme', 'ftp://issuer.example.com'],
    ['a file URL', 'file:///etc/passwd'],
    ['too long', `https://issuer.example.com/${'a'.repeat(512)}`],
    ['spaces', 'https://issuer.example.com/a b'],
  ])('refuses %s', (_, issuer) => {
    expect(issuerAllowed(issuer, deployed)).toBe(false);
    expect(issuerAllowed(issuer, local)).toBe(false);
  });

  it.each([
    'http://127.0.0.1:3000/_dev/workload',
    'http://127.0.0.1:3000',
    'http://[::1]:3000/_dev/workload',
    'http://127.0.0.1/x',
  ])('allows the loopback http issuer %s in the local runtime only', (issuer) => {
    expect(issuerAllowed(issuer, local)).toBe(true);
    expect(issuerAllowed(issuer, deployed)).toBe(false);
  });

  it.each([
    ['localhost by name', 'http://localhost:3000'],
    ['elsewhere in 127/8', 'http://127.0.0.2:3000'],
    ['a short form of 127.0.0.1', 'http://127.1:3000'],
    ['a decimal form of 127.0.0.1', 'http://2130706433:3000'],
    ['a mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]:3000'],
    ['the unspecified address', 'http://0.0.0.0:3000'],
    ['a private address', 'http://10.0.0.1:3000'],
    ['the metadata endpoint', 'http://169.254.169.254/latest'],
    ['https to loopback (an IP literal)', 'https://127.0.0.1:3000'],
    ['a user on loopback', 'http://u@127.0.0.1:3000'],
  ])('refuses %s even in the local runtime', (_, issuer) => {
    expect(issuerAllowed(issuer, local)).toBe(false);
  });
});

describe('subjectMatches', () => {
  it.each([
    ['repo:acme/app:ref:refs/heads/main', 'repo:acme/app:ref:refs/heads/main'],
    ['repo:acme/*:ref:refs/heads/main', 'repo:acme/app:ref:refs/heads/main'],
    ['repo:acme/*:ref:refs/heads/main', 'repo:acme/other-app:ref:refs/heads/main'],
    ['repo:acme/app:ref:refs/heads/*', 'repo:acme/app:ref:refs/heads/feature/x'],
    ['repo:acme/app:*:*', 'repo:acme/app:environment:production'],
    ['repo:acme/*-svc:ref:refs/heads/main', 'repo:acme/billing-svc:ref:refs/heads/main'],
    ['repo:acme/a.b:ref:x', 'repo:acme/a.b:ref:x'],
    ['a+b(c)[d]$^|?:*', 'a+b(c)[d]$^|?:anything'],
    ['repo:a*b*c', 'repo:aXbYc'],
    ['repo:a*b*c', 'repo:abc'],
    ['repo:*a', 'repo:aa'],
    ['repo:ab*ba', 'repo:abba'],
  ])('%s matches %s', (pattern, subject) => {
    expect(subjectMatches(pattern, subject)).toBe(true);
  });

  it.each([
    ['exact but for case', 'repo:acme/app:ref:refs/heads/main', 'repo:Acme/app:ref:refs/heads/main'],
    ['a prefix', 'repo:acme/app:ref:refs/heads/main', 'repo:acme/app:ref:refs/heads/main-2'],
    ['* across a colon', 'repo:acme/*:ref:refs/heads/main', 'repo:acme/a:b:ref:refs/heads/main'],
    ['* across a colon at the end', 'repo:acme/app:ref:*', 'repo:acme/app:ref:refs/heads/main:x'],
    ['another owner', 'repo:acme/*:ref:refs/heads/main', 'repo:evil/acme:ref:refs/heads/main'],
    ['another branch', 'repo:acme/*:ref:refs/heads/main', 'repo:acme/app:ref:refs/heads/dev'],
    ['an environment for a branch', 'repo:acme/app:ref:refs/heads/main', 'repo:acme/app:environment:production'],
    ['a dot is not a wildcard', 'repo:acme/a.b:ref:x', 'repo:acme/aXb:ref:x'],
    ['fewer parts', 'repo:acme/app:*:*', 'repo:acme/app:pull_request'],
    ['a trailing newline', 'repo:acme/app', 'repo:acme/app\n'],
    ['stars in order', 'repo:a*b*c', 'repo:acb'],
    ['overlapping prefix and suffix', 'repo:ab*ba', 'repo:aba'],
    ['a middle piece missing', 'repo:a*b*c', 'repo:axc'],
    ['a piece used twice', 'repo:a*b*b*c', 'repo:abc'],
    ['a middle piece found only inside the suffix', 'repo:a*b*ba', 'repo:aba'],
  ])('%s: %s does not match %s', (_, pattern, subject) => {
    expect(subjectMatches(pattern, subject)).toBe(false);
  });

  it("matches GitHub's default subjects", () => {
    const subjects = githubActionsSubjects('acme/app');
    expect(subjectMatches(subjects.mainBranch, 'repo:acme/app:ref:refs/heads/main')).toBe(true);
    expect(subjectMatches(subjects.productionEnvironment, 'repo:acme/app:environment:production')).toBe(true);
  });
});

describe('isWildcardOnly', () => {
  it.each(['*', '*:*', '**', ':', '*:*:*:*', ''])('%j is wildcards only', (pattern) => {
    expect(isWildcardOnly(pattern)).toBe(true);
  });
  it.each(['repo:*', '*:acme/*', 'a', 'repo:acme/app:ref:refs/heads/main'])('%j is not', (pattern) => {
    expect(isWildcardOnly(pattern)).toBe(false);
  });
});

describe('claimsMatch', () => {
  const payload = {
    repository_owner: 'acme',
    environment: 'production',
    run_attempt: 1,
    fork: false,
    groups: ['admins'],
    org: { name: 'acme' },
    nothing: null,
  };

  it('holds with no claims required', () => {
    expect(claimsMatch(undefined, payload)).toBe(true);
    expect(claimsMatch({}, payload)).toBe(true);
  });

  it('holds when every claim equals its value', () => {
    expect(claimsMatch({ repository_owner: 'acme', environment: 'production' }, payload)).toBe(true);
  });

  it('compares numbers and booleans as text', () => {
    expect(claimsMatch({ run_attempt: '1', fork: 'false' }, payload)).toBe(true);
    expect(claimsMatch({ run_attempt: '01' }, payload)).toBe(false);
  });

  it.each([
    ['another value', { environment: 'staging' }],
    ['one of two wrong', { repository_owner: 'acme', environment: 'staging' }],
    ['a missing claim', { ref: 'refs/heads/main' }],
    ['a list', { groups: 'admins' }],
    ['a list as text', { groups: '["admins"]' }],
    ['an object', { org: '[object Object]' }],
    ['null', { nothing: 'null' }],
    ['an inherited property', { constructor: 'function Object() { [native code] }' }],
    ['toString', { toString: 'x' }],
    ['case', { environment: 'Production' }],
  ])('fails on %s', (_, expected) => {
    expect(claimsMatch(expected, payload)).toBe(false);
  });
});

describe('ruleProblem', () => {
  const rule = (overrides: Partial<Extract<TrustRuleBody, { kind: 'oidc' }>> = {}): TrustRuleBody => ({
    kind: 'oidc',
    issuer: GITHUB_ACTIONS_ISSUER,
    audience: 'secrets-service',
    subject: 'repo:acme/app:ref:refs/heads/main',
    ...overrides,
  });

  it('passes a GitHub rule', () => {
    expect(ruleProblem(rule(), deployed)).toBeNull();
    expect(ruleProblem(rule({ subject: 'repo:acme/*:environment:production' }), deployed)).toBeNull();
  });

  it.each([
    ['an http issuer', rule({ issuer: 'http://token.actions.githubusercontent.com' }), 'issuer'],
    ['an IP issuer', rule({ issuer: 'https://10.0.0.1' }), 'issuer'],
    ['a loopback issuer when deployed', rule({ issuer: 'http://127.0.0.1:3000/_dev/workload' }), 'issuer'],
    ['an empty audience', rule({ audience: '' }), 'audience'],
    ['an audience of spaces', rule({ audience: '  ' }), 'audience'],
    ['an empty subject', rule({ subject: '' }), 'subject'],
    ['a subject *', rule({ subject: '*' }), 'subject'],
    ['a subject *:*', rule({ subject: '*:*' }), 'subject'],
    ['a subject *:*:*:*', rule({ subject: '*:*:*:*' }), 'subject'],
    [
      'eleven claims',
      rule({ claims: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`c${i}`, 'v'])) }),
      'claims',
    ],
  ])('refuses %s', (_, body, field) => {
    expect(ruleProblem(body, deployed)?.field).toBe(field);
  });

  it('passes a loopback issuer in the local runtime', () => {
    expect(ruleProblem(rule({ issuer: 'http://127.0.0.1:3000/_dev/workload' }), local)).toBeNull();
  });

  it('says why a rule cannot be saved, in words for the caller', () => {
    const arn = 'arn:aws:iam::123456789012:role/deploy';
    const many = Array.from({ length: 11 }, (_, i) => `arn:aws:iam::123456789012:role/r${i}`);
    expect(ruleProblem({ kind: 'aws', principals: [] }, deployed)).toEqual({
      field: 'principals',
      message: 'Give 1 to 10 principals',
    });
    expect(ruleProblem({ kind: 'aws', principals: many }, deployed)?.field).toBe('principals');
    expect(ruleProblem({ kind: 'aws', principals: many.slice(0, 10) }, deployed)).toBeNull();
    expect(ruleProblem({ kind: 'aws', principals: [arn, arn] }, deployed)?.message).toBe('Name each principal once');
    expect(ruleProblem(rule({ audience: ' ' }), deployed)?.message).toBe('Give the audience: it is empty');
    expect(ruleProblem(rule({ subject: ' ' }), deployed)).toEqual({
      field: 'subject',
      message: 'Give the subject: it is empty',
    });
    const claims = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, 'v']));
    expect(ruleProblem(rule({ claims: claims(10) }), deployed)).toBeNull();
    expect(ruleProblem(rule({ claims: claims(11) }), deployed)?.message).toBe('Require at most 10 claims');
  });

  it('refuses an aws rule naming a principal twice', () => {
    const arn = 'arn:aws:iam::123456789012:role/deploy';
    expect(ruleProblem({ kind: 'aws', principals: [arn] }, deployed)).toBeNull();
    expect(ruleProblem({ kind: 'aws', principals: [arn, arn] }, deployed)?.field).toBe('principals');
  });
});

describe('trustRuleBody', () => {
  const parse = (body: unknown) => trustRuleBody().safeParse(body);
  const oidc = {
    kind: 'oidc',
    issuer: GITHUB_ACTIONS_ISSUER,
    audience: 'secrets-service',
    subject: 'repo:acme/app:ref:refs/heads/main',
  };

  it('takes an oidc rule, with or without claims', () => {
    expect(parse(oidc).success).toBe(true);
    expect(parse({ ...oidc, claims: { environment: 'production', 'https://x.example/team': 'a' } }).success).toBe(true);
  });

  it.each([
    ['no kind', { ...oidc, kind: undefined }],
    ['another kind', { ...oidc, kind: 'saml' }],
    ['an unknown field', { ...oidc, extra: 1 }],
    ['an empty audience', { ...oidc, audience: '' }],
    ['a long audience', { ...oidc, audience: 'a'.repeat(257) }],
    ['an empty subject', { ...oidc, subject: '' }],
    ['a long subject', { ...oidc, subject: 'a'.repeat(513) }],
    ['a long issuer', { ...oidc, issuer: `https://x.example/${'a'.repeat(500)}` }],
    ['an issuer of another scheme', { ...oidc, issuer: 'ftp://x.example' }],
    ['a claim that is a number', { ...oidc, claims: { run_attempt: 1 } }],
    ['a claim named with a space', { ...oidc, claims: { 'a b': 'x' } }],
    ['a long claim value', { ...oidc, claims: { a: 'x'.repeat(513) } }],
    ['eleven claims', { ...oidc, claims: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`c${i}`, 'v'])) }],
    ['claims as a list', { ...oidc, claims: ['a'] }],
  ])('refuses %s', (_, body) => {
    expect(parse(body).success).toBe(false);
  });

  it('never keeps a claim named __proto__ (zod drops it) as the prototype', () => {
    const parsed = parse({ ...oidc, claims: JSON.parse('{"__proto__": {"polluted": "x"}, "a": "b"}') });
    expect(parsed.success).toBe(true);
    const claims = (parsed.data as { claims: Record<string, string> }).claims;
    expect(Object.keys(claims)).toEqual(['a']);
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype);
  });

  it.each([
    'arn:aws:iam::123456789012:role/deploy',
    'arn:aws:iam::123456789012:role/service-role/ci/deploy+x=y,z.w@v_u-t',
    'arn:aws-cn:iam::123456789012:role/deploy',
    'arn:aws-us-gov:iam::123456789012:user/alice',
  ])('takes the aws principal %s', (arn) => {
    expect(parse({ kind: 'aws', principals: [arn] }).success).toBe(true);
  });

  it.each([
    ['no principal', []],
    ['eleven principals', Array.from({ length: 11 }, (_, i) => `arn:aws:iam::123456789012:role/r${i}`)],
    ['a wildcard', ['arn:aws:iam::123456789012:role/*']],
    ['an account of 11 digits', ['arn:aws:iam::12345678901:role/deploy']],
    ['another partition', ['arn:aws-iso:iam::123456789012:role/deploy']],
    ['another service', ['arn:aws:sts::123456789012:assumed-role/deploy/session']],
    ['a group', ['arn:aws:iam::123456789012:group/devs']],
    ['a user with a path', ['arn:aws:iam::123456789012:user/path/alice']],
    ['an empty role', ['arn:aws:iam::123456789012:role/']],
    ['the root', ['arn:aws:iam::123456789012:root']],
    ['an account id alone', ['123456789012']],
  ])('refuses an aws rule with %s', (_, principals) => {
    expect(parse({ kind: 'aws', principals }).success).toBe(false);
  });

  it('refuses an http issuer with the runtime rule, and takes loopback only locally', () => {
    const loopback = { ...oidc, issuer: 'http://127.0.0.1:3000/_dev/workload' };
    expect(trustRuleBody().safeParse(loopback).success).toBe(true);
    const refused = trustRuleBodyFor(deployed).safeParse(loopback);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['issuer'], message: 'Use an https URL' });
    expect(trustRuleBodyFor(local).safeParse(loopback).success).toBe(true);
    expect(trustRuleBodyFor(deployed).safeParse({ ...oidc, issuer: 'https://1.2.3.4' }).error?.issues[0]?.message).toBe(
      'Use a host name, not an IP address',
    );
    expect(trustRuleBodyFor(deployed).safeParse(oidc).success).toBe(true);
  });
});

describe('storedTrustRule', () => {
  it('reads a stored rule of either kind', () => {
    const id = newTrustRuleId();
    expect(id).toMatch(/^tr_[0-9A-Za-z]{16}$/);
    const createdAt = '2026-11-29T08:00:00.000Z';
    expect(
      storedTrustRule().safeParse({
        id,
        kind: 'oidc',
        issuer: GITHUB_ACTIONS_ISSUER,
        audience: 'a',
        subject: 's',
        createdAt,
      }).success,
    ).toBe(true);
    expect(
      storedTrustRule().safeParse({ id, kind: 'aws', principals: ['arn:aws:iam::123456789012:user/a'], createdAt })
        .success,
    ).toBe(true);
    expect(storedTrustRule().safeParse({ id: 'sa_x', kind: 'aws', principals: [], createdAt }).success).toBe(false);
  });

  it('allows ten rules', () => {
    expect(MAX_TRUST_RULES).toBe(10);
  });
});
