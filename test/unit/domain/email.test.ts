import { normalizeEmail } from '@lambdas/domain/email';
import type { ValidationDetail } from '@lambdas/domain/errors';
import { email } from '@lambdas/http/bodies/checks';
import fc from 'fast-check';

/** Addresses as people type them: any case, blanks around, now and then too long or malformed. */
const typed = fc.oneof(
  fc
    .tuple(fc.emailAddress(), fc.constantFrom('', ' ', '\t', '  \n'), fc.boolean())
    .map(([email, blank, upper]) => `${blank}${upper ? email.toUpperCase() : email}${blank}`),
  fc.string(),
  fc.constantFrom('a@b', 'a@b.c', 'a..b@example.com', `${'a'.repeat(250)}@x.io`, '@example.com', 'a@example.com.'),
);

describe('normalizeEmail', () => {
  it('trims and lower-cases an address', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('refuses what is not an address, or longer than 254 characters', () => {
    expect(normalizeEmail('nope')).toBeUndefined();
    expect(normalizeEmail(`${'a'.repeat(245)}@example.com`)).toBeUndefined();
  });

  it('judges every address as the body of add-member does', () => {
    fc.assert(
      fc.property(typed, (raw) => {
        const details: ValidationDetail[] = [];
        const checked = email(raw, 'email', details);
        expect(normalizeEmail(raw)).toBe(details.length === 0 ? checked : undefined);
      }),
      { numRuns: 2000 },
    );
  });
});
