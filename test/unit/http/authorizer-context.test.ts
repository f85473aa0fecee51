import { ErrorText } from '@contract/errors';
import { expiredContext, principalFromContext, toAuthorizerContext } from '@lambdas/http/authorizer-context';

describe('authorizer context', () => {
  it('round-trips a token principal and a session principal', () => {
    const token = { kind: 'token' as const, userId: 'u1', tokenId: 'AAAAAAAAAAAA', scopes: ['read:secrets' as const] };
    expect(principalFromContext(toAuthorizerContext(token))).toEqual(token);
    const session = {
      kind: 'session' as const,
      userId: 'u2',
      issuedAt: '2026-11-23T10:00:00.000Z',
      scopes: ['read:secrets' as const, 'admin' as const],
    };
    expect(principalFromContext(toAuthorizerContext(session))).toEqual(session);
  });

  it('round-trips a limited token’s projects and environments', () => {
    const token = {
      kind: 'token' as const,
      userId: 'u1',
      tokenId: 'AAAAAAAAAAAA',
      scopes: ['read:secrets' as const],
      projects: [
        { projectId: 'prj_AAAAAAAAAAAAAAAA', environments: ['staging'] },
        { projectId: 'prj_BBBBBBBBBBBBBBBB' },
      ],
    };
    expect(principalFromContext(toAuthorizerContext(token))).toEqual(token);
  });

  it('round-trips a service account principal, with its one project, its name and whom it signed in as', () => {
    const machine = {
      kind: 'serviceAccount' as const,
      userId: 'sa_AAAAAAAAAAAAAAAA',
      tokenId: 'AAAAAAAAAAAA',
      scopes: ['read:secrets' as const],
      projects: [{ projectId: 'prj_AAAAAAAAAAAAAAAA' }],
      name: 'deploy',
      subject: 'https://token.actions.githubusercontent.com#repo:acme/app:ref:refs/heads/main',
    };
    expect(principalFromContext(toAuthorizerContext(machine))).toEqual(machine);
  });

  it.each([
    ['no project', undefined],
    ['two projects', '[{"projectId":"prj_AAAAAAAAAAAAAAAA"},{"projectId":"prj_BBBBBBBBBBBBBBBB"}]'],
  ])('refuses a service account principal with %s: it reaches its one project, never more', (_label, projects) => {
    const context = {
      kind: 'serviceAccount',
      userId: 'sa_AAAAAAAAAAAAAAAA',
      tokenId: 'AAAAAAAAAAAA',
      scopes: 'read:secrets',
      ...(projects !== undefined && { projects }),
    };
    expect(() => principalFromContext(context)).toThrow(ErrorText.unauthorized);
  });

  it('refuses a service account principal whose id is not a service account’s', () => {
    const context = toAuthorizerContext({
      kind: 'serviceAccount',
      userId: 'user-1',
      tokenId: 'AAAAAAAAAAAA',
      scopes: ['read:secrets'],
      projects: [{ projectId: 'prj_AAAAAAAAAAAAAAAA' }],
    });
    expect(() => principalFromContext(context)).toThrow(ErrorText.unauthorized);
  });

  it('carries no e-mail: access is keyed by the user id', () => {
    const context = toAuthorizerContext({ kind: 'token', userId: 'u1', tokenId: 'AAAAAAAAAAAA', scopes: ['admin'] });
    expect(Object.keys(context).sort()).toEqual(['kind', 'scopes', 'tokenId', 'userId']);
  });

  it('answers the expired 401 for the expired context', () => {
    expect(() => principalFromContext(expiredContext)).toThrow(ErrorText.expired);
  });

  it.each([
    ['no context', undefined],
    ['an empty context', {}],
    ['no user id', { kind: 'session', issuedAt: '2026-11-23T10:00:00.000Z', scopes: 'admin' }],
    ['an unknown kind', { kind: 'robot', userId: 'u', scopes: 'admin' }],
    ['a token without its id', { kind: 'token', userId: 'u', scopes: 'admin' }],
    ['a session without its issue time', { kind: 'session', userId: 'u', scopes: 'admin' }],
    ['projects that are not JSON', { kind: 'token', userId: 'u', tokenId: 'AAAAAAAAAAAA', scopes: '', projects: '[' }],
    ['projects of another form', { kind: 'token', userId: 'u', tokenId: 'AAAAAAAAAAAA', scopes: '', projects: '[{}]' }],
    [
      'environments of another form',
      {
        kind: 'token',
        userId: 'u',
        tokenId: 'AAAAAAAAAAAA',
        scopes: '',
        projects: '[{"projectId":"p","environments":"x"}]',
      },
    ],
    [
      'a session with projects',
      { kind: 'session', userId: 'u', issuedAt: '2026-11-23T10:00:00.000Z', scopes: '', projects: '[]' },
    ],
  ])('fails closed with the generic 401 for %s', (_label, context) => {
    expect(() => principalFromContext(context)).toThrow(ErrorText.unauthorized);
  });

  it('drops scopes it does not know', () => {
    const principal = principalFromContext({
      kind: 'session',
      userId: 'u',
      issuedAt: '2026-11-23T10:00:00.000Z',
      scopes: 'admin root',
    });
    expect(principal.scopes).toEqual(['admin']);
  });
});
