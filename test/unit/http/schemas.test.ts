import { addMemberBody } from '@lambdas/http/schemas/add-member';
import { createProjectBody } from '@lambdas/http/schemas/create-project';
import { createTokenBody } from '@lambdas/http/schemas/create-token';

describe('createTokenBody', () => {
  it('trims the name and leaves ttlDays out when omitted', () => {
    expect(createTokenBody.parse({ name: '  ci ', scopes: ['admin'] })).toEqual({ name: 'ci', scopes: ['admin'] });
  });

  it('accepts null ttlDays and the bounds 1 and 3650', () => {
    for (const ttlDays of [null, 1, 3650])
      expect(createTokenBody.safeParse({ name: 'x', scopes: ['admin'], ttlDays }).success).toBe(true);
  });

  it.each([
    { name: 'x'.repeat(101), scopes: ['admin'] },
    { name: 'x', scopes: [] },
    { name: 'x', scopes: ['admin', 'admin'] },
    { name: 'x', scopes: ['read'] },
    { name: 'x', scopes: ['admin'], ttlDays: 0 },
    { name: 'x', scopes: ['admin'], extra: true },
  ])('rejects %j', (body) => {
    expect(createTokenBody.safeParse(body).success).toBe(false);
  });
});

describe('addMemberBody', () => {
  it('trims and lower-cases the e-mail', () => {
    expect(addMemberBody.parse({ email: ' Ada@Example.COM ', role: 'admin' })).toEqual({
      email: 'ada@example.com',
      role: 'admin',
    });
  });

  it('refuses the owner role and a malformed e-mail', () => {
    expect(addMemberBody.safeParse({ email: 'a@x.io', role: 'owner' }).success).toBe(false);
    expect(addMemberBody.safeParse({ email: 'nope', role: 'member' }).success).toBe(false);
  });
});

describe('createProjectBody', () => {
  it('needs a name of 1 to 100 characters', () => {
    expect(createProjectBody.safeParse({ name: 'p' }).success).toBe(true);
    expect(createProjectBody.safeParse({ name: ' ' }).success).toBe(false);
  });
});
