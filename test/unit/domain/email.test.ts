import { normalizeEmail } from '@contract/email';
import { addMemberRoute } from '@contract/routes/add-member';
import fc from 'fast-check';

/** Addresses as people type them: any case, blanks around, now and then too long or malformed. */
const typed = fc.oneof(
  fc
    .tuple(fc.emailAddress(), fc.constantFrom('', ' ', '\t', '  \n'), fc.boolean())
    .map(([email, blank, upper]) => `${blank}${upper ? email.toUpperCase() : email}${blank}`),
  fc.string(),
  fc.constantFrom(
    'a@b',
    'a@b.c',
    '\u212Aelly@example.com',
    'x@y@z',
    'a b@c.d',
    'a..b@example.com',
    `${'a'.repeat(250)}@x.io`,
    '@example.com',
    'a@example.com.',
  ),
);

describe('normalizeEmail', () => {
  it('trims and lower-cases an address', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('refuses what is not an address, or longer than 254 characters', () => {
    expect(normalizeEmail('nope')).toBeUndefined();
    expect(normalizeEmail(`${'a'.repeat(242)}@example.com`)).toBe(`${'a'.repeat(242)}@example.com`);
    expect(normalizeEmail(`${'a'.repeat(243)}@example.com`)).toBeUndefined();
  });

  it.each([
    ['a KELVIN SIGN, which lower-cases to an ASCII k', '\u212Aelly@example.com'],
    ['a dotless i', 'adm\u0131n@example.com'],
    ['any other non-ASCII letter', 'jos\u00e9@example.com'],
    ['two @', 'a@b@example.com'],
    ['no local part', '@example.com'],
    ['no domain', 'kelly@'],
    ['inner whitespace', 'kel ly@example.com'],
    ['a tab inside', 'kelly@exa\tmple.com'],
    ['a control character', 'kelly\u0000@example.com'],
    ['DEL', 'kelly\u007f@example.com'],
  ])('refuses an address with %s', (_label, raw) => {
    expect(normalizeEmail(raw)).toBeUndefined();
  });

  it('judges the address before lower-casing it', () => {
    expect(normalizeEmail(' KELLY@Example.COM\t')).toBe('kelly@example.com');
    expect('\u212Aelly@example.com'.toLowerCase()).toBe('kelly@example.com');
    expect(normalizeEmail('\u212Aelly@example.com')).toBeUndefined();
  });

  it('judges every address as the body of add-member does', () => {
    const body = addMemberRoute.schemas().body;
    fc.assert(
      fc.property(typed, (raw) => {
        const parsed = body.safeParse({ email: raw, role: 'member' });
        expect(normalizeEmail(raw)).toBe(parsed.success ? parsed.data.email : undefined);
      }),
      { numRuns: 2000 },
    );
  });
});
