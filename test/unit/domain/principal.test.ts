import { ErrorText } from '@lambdas/domain/errors';
import { expiredContext, principalFromContext, toAuthorizerContext } from '@lambdas/domain/principal';

describe('authorizer context', () => {
  it('round-trips a token principal and a session principal', () => {
    const token = {
      kind: 'token' as const,
      userId: 'u1',
      email: 'a@x.io',
      tokenId: 'AAAAAAAAAAAA',
      scopes: ['read:secrets' as const],
    };
    expect(principalFromContext(toAuthorizerContext(token))).toEqual(token);
    const session = {
      kind: 'session' as const,
      userId: 'u2',
      email: 'b@x.io',
      scopes: ['read:secrets' as const, 'admin' as const],
    };
    expect(principalFromContext(toAuthorizerContext(session))).toEqual(session);
  });

  it('answers the expired 401 for the expired context', () => {
    expect(() => principalFromContext(expiredContext)).toThrow(ErrorText.expired);
  });

  it.each([
    ['no context', undefined],
    ['an empty context', {}],
    ['no e-mail', { kind: 'session', userId: 'u', scopes: 'admin' }],
    ['an unknown kind', { kind: 'robot', userId: 'u', email: 'a@x.io', scopes: 'admin' }],
    ['a token without its id', { kind: 'token', userId: 'u', email: 'a@x.io', scopes: 'admin' }],
  ])('fails closed with the generic 401 for %s', (_label, context) => {
    expect(() => principalFromContext(context)).toThrow(ErrorText.unauthorized);
  });

  it('drops scopes it does not know', () => {
    const principal = principalFromContext({ kind: 'session', userId: 'u', email: 'a@x.io', scopes: 'admin root' });
    expect(principal.scopes).toEqual(['admin']);
  });
});
