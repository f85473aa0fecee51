import { UsageError } from '../../../cli/errors';
import { DEFAULT_OIDC_AUDIENCE, hold, redact, serviceAccountFrom } from '../../../cli/sign-in';
import { resolveCredentials } from '../../../cli/target';

/** How the command chooses to sign in as `SECRETS_SERVICE_ACCOUNT`, from its environment alone. */

const SA = 'sa_0123456789abcdef';
const GITHUB = {
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://github.example/token?x=1',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'rt',
};
const base = { SECRETS_API_URL: 'https://secrets.example.com', SECRETS_SERVICE_ACCOUNT: SA };

const kindOf = (env: NodeJS.ProcessEnv) => {
  const credentials = resolveCredentials({ ...base, ...env });
  return credentials.serviceAccount?.signIn ?? 'token';
};

describe('resolveCredentials with SECRETS_SERVICE_ACCOUNT', () => {
  it('uses SECRETS_TOKEN when it is set', () => {
    expect(kindOf({ SECRETS_TOKEN: 'svc_live_x', SECRETS_OIDC_TOKEN: 'jwt' })).toBe('token');
  });

  it.each([
    ['SECRETS_AUTH=aws before any token', { SECRETS_AUTH: 'aws', SECRETS_OIDC_TOKEN: 'jwt', ...GITHUB }, 'aws'],
    ['SECRETS_OIDC_TOKEN before GitHub Actions', { SECRETS_OIDC_TOKEN: 'jwt', ...GITHUB }, 'oidc'],
    ['SECRETS_OIDC_TOKEN_FILE before GitHub Actions', { SECRETS_OIDC_TOKEN_FILE: '/t', ...GITHUB }, 'oidc'],
    ['GitHub Actions last', GITHUB, 'github-actions'],
    [
      'SECRETS_AUTH=github-actions over a token',
      { SECRETS_AUTH: 'github-actions', SECRETS_OIDC_TOKEN: 'jwt', ...GITHUB },
      'github-actions',
    ],
  ])('takes %s', (_label, env, kind) => {
    expect(kindOf(env)).toBe(kind);
  });

  it('asks GitHub for secrets-service, or SECRETS_OIDC_AUDIENCE', () => {
    expect(DEFAULT_OIDC_AUDIENCE).toBe('secrets-service');
    expect(serviceAccountFrom(GITHUB, SA)).toMatchObject({ audience: 'secrets-service' });
    expect(serviceAccountFrom({ ...GITHUB, SECRETS_OIDC_AUDIENCE: 'https://a.example' }, SA)).toMatchObject({
      audience: 'https://a.example',
    });
  });

  it('signs for AWS_REGION’s STS, else the global one', () => {
    expect(serviceAccountFrom({ SECRETS_AUTH: 'aws', AWS_REGION: 'eu-west-1' }, SA)).toEqual({
      id: SA,
      signIn: 'aws',
      region: 'eu-west-1',
    });
    expect(serviceAccountFrom({ SECRETS_AUTH: 'aws' }, SA)).toEqual({ id: SA, signIn: 'aws' });
  });

  it('asks for SECRETS_SIGN_IN_TTL’s life', () => {
    expect(serviceAccountFrom({ SECRETS_OIDC_TOKEN: 'jwt', SECRETS_SIGN_IN_TTL: '5m' }, SA)).toMatchObject({
      ttlSeconds: 300,
    });
    expect(serviceAccountFrom({ SECRETS_OIDC_TOKEN: 'jwt' }, SA)).not.toHaveProperty('ttlSeconds');
  });

  it.each([
    ['nothing to sign in with', {}],
    ['a SECRETS_SIGN_IN_TTL under a minute', { SECRETS_OIDC_TOKEN: 'jwt', SECRETS_SIGN_IN_TTL: '59s' }],
    ['a SECRETS_SIGN_IN_TTL over an hour', { SECRETS_OIDC_TOKEN: 'jwt', SECRETS_SIGN_IN_TTL: '61m' }],
    ['a malformed id', { SECRETS_SERVICE_ACCOUNT: 'deploy', SECRETS_OIDC_TOKEN: 'jwt' }],
    ['an unknown SECRETS_AUTH', { SECRETS_AUTH: 'gcp', SECRETS_OIDC_TOKEN: 'jwt' }],
    ['both a token and a token file', { SECRETS_OIDC_TOKEN: 'jwt', SECRETS_OIDC_TOKEN_FILE: '/t' }],
    ['SECRETS_AUTH=oidc without a token', { SECRETS_AUTH: 'oidc', ...GITHUB }],
    ['SECRETS_AUTH=github-actions outside GitHub Actions', { SECRETS_AUTH: 'github-actions' }],
  ])('is a usage error with %s', (_label, env) => {
    expect(() => resolveCredentials({ ...base, ...env })).toThrow(UsageError);
  });
});

describe('redact', () => {
  it('hides every credential held', () => {
    hold('svc_live_secret');
    hold(undefined);
    expect(redact('a svc_live_secret b svc_live_secret')).toBe('a [redacted] b [redacted]');
  });
});
