import { ErrorText } from '@contract/errors';
import { scopes } from '@contract/scopes';
import { BadRequestError } from '@lambdas/domain/errors';
import { addMemberBody } from '@lambdas/http/bodies/add-member';
import { createProjectBody } from '@lambdas/http/bodies/create-project';
import { createTokenBody } from '@lambdas/http/bodies/create-token';
import { addMemberBodySchema, createProjectBodySchema, createTokenBodySchema } from '@lib/api-schemas';
import fc from 'fast-check';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/** What a client sees of a body: the data the handler gets, or the details of its 400. */
const outcome = (check: (body: unknown) => unknown, body: unknown) => {
  try {
    return { data: check(body) };
  } catch (error) {
    if (!(error instanceof BadRequestError) || error.message !== ErrorText.validation) throw error;
    return { details: error.details };
  }
};

/**
 * The same from the body's zod schema in the API document, with zod's English messages. One
 * difference is intended: zod goes on to check the length of a value of the wrong type that has one
 * (`{"name": []}` also gets "Too small: expected array to have >=1 items"); the body check stops at
 * the type, so those issues are left out here.
 */
const schemaOutcome = (schema: z.ZodMiniType, body: unknown) => {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { data: parsed.data };
  const path = (issue: z.core.$ZodIssue) => issue.path.join('.');
  const wrongType = new Set(parsed.error.issues.filter((issue) => issue.code === 'invalid_type').map(path));
  const sizeOfWrongType = (issue: z.core.$ZodIssue) =>
    (issue.code === 'too_small' || issue.code === 'too_big') && wrongType.has(path(issue));
  return {
    details: parsed.error.issues
      .filter((issue) => !sizeOfWrongType(issue))
      .map((issue) => ({ path: path(issue), message: issue.message })),
  };
};

z.config(en());

const detailsOf = (check: (body: unknown) => unknown, body: unknown) => outcome(check, body).details;

// Bodies as JSON text, parsed as the middleware parses them: so `__proto__` is an own key, and
// `1e400` is Infinity, as a client can send them.
const anyJson = fc.jsonValue().map((value) => JSON.stringify(value));
const numberText = fc.oneof(
  fc.integer({ min: -10, max: 3700 }).map(String),
  fc.constantFrom('0.5', '2.5', '-0', '1e20', '-1e20', '9007199254740993', '1e400', '-1e400', 'null', '"30"'),
);
const stringText = (strings: fc.Arbitrary<string>) => strings.map((value) => JSON.stringify(value));
const blanks = fc.constantFrom('', ' ', '\t', ' \n ', '\u00a0');
const nameText = fc.oneof(
  stringText(fc.tuple(blanks, fc.string({ maxLength: 110 }), blanks).map((parts) => parts.join(''))),
  stringText(fc.integer({ min: 98, max: 102 }).map((length) => 'n'.repeat(length))),
  anyJson,
);
const scopesText = fc.oneof(
  fc
    .array(fc.oneof(fc.constantFrom(...scopes), fc.constantFrom('read', 'Admin', ''), fc.jsonValue()), { maxLength: 4 })
    .map((list) => JSON.stringify(list)),
  anyJson,
);
const emailText = fc.oneof(
  stringText(
    fc
      .tuple(fc.emailAddress(), blanks, fc.boolean())
      .map(([email, blank, upper]) => `${blank}${upper ? email.toUpperCase() : email}${blank}`),
  ),
  stringText(fc.constantFrom('nope', 'a@b', `${'a'.repeat(250)}@x.io`, `${'a'.repeat(300)}`)),
  anyJson,
);
const roleText = fc.oneof(stringText(fc.constantFrom('member', 'admin', 'owner', 'Admin', '')), anyJson);
const extraKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'extra', '1', ''), fc.string());

/** A JSON object with each field now and then left out, and now and then keys of no field. */
const bodyText = (fields: Record<string, fc.Arbitrary<string>>) =>
  fc.oneof(
    fc
      .tuple(
        fc.record(fields, { requiredKeys: [] }),
        fc.array(fc.tuple(extraKey, anyJson), { maxLength: 2 }),
        fc.boolean(),
      )
      .map(([known, extra, extraFirst]) => {
        const entries = [...Object.entries(known), ...extra];
        if (extraFirst) entries.reverse();
        return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
      }),
    anyJson,
    fc.constantFrom('1e400', '"text"', 'null', '[]'),
  );

const bodies = [
  {
    route: 'POST /api/v1/tokens',
    check: createTokenBody,
    schema: createTokenBodySchema,
    text: bodyText({ name: nameText, scopes: scopesText, ttlDays: numberText }),
  },
  {
    route: 'POST /api/v1/projects',
    check: createProjectBody,
    schema: createProjectBodySchema,
    text: bodyText({ name: nameText }),
  },
  {
    route: 'POST /api/v1/projects/{projectId}/members',
    check: addMemberBody,
    schema: addMemberBodySchema,
    text: bodyText({ email: emailText, role: roleText }),
  },
];

describe.each(bodies)('the body of $route', ({ check, schema, text }) => {
  it('gives the data, or the details in their order, that its schema in the API document gives', () => {
    fc.assert(
      fc.property(text, (json) => {
        const body = JSON.parse(json);
        expect(outcome(check, body)).toEqual(schemaOutcome(schema, body));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('createTokenBody', () => {
  it('trims the name and leaves ttlDays out when omitted', () => {
    expect(createTokenBody({ name: '  ci ', scopes: ['admin'] })).toEqual({ name: 'ci', scopes: ['admin'] });
  });

  it('accepts null ttlDays and the bounds 1 and 3650', () => {
    for (const ttlDays of [null, 1, 3650]) {
      expect(createTokenBody({ name: 'x', scopes: ['admin'], ttlDays })).toEqual({
        name: 'x',
        scopes: ['admin'],
        ttlDays,
      });
    }
  });

  it.each([
    [{ name: 'x'.repeat(101), scopes: ['admin'] }, 'name', 'Too big: expected string to have <=100 characters'],
    [{ name: ' ', scopes: ['admin'] }, 'name', 'Too small: expected string to have >=1 characters'],
    [{ name: 'x', scopes: [] }, 'scopes', 'Too small: expected array to have >=1 items'],
    [{ name: 'x', scopes: ['admin', 'admin'] }, 'scopes', 'Scopes must be unique'],
    [
      { name: 'x', scopes: ['admin', 'read'] },
      'scopes.1',
      'Invalid option: expected one of "read:secrets"|"write:secrets"|"admin"',
    ],
    [{ name: 'x', scopes: ['admin'], ttlDays: 0 }, 'ttlDays', 'Too small: expected number to be >=1'],
    [{ name: 'x', scopes: ['admin'], ttlDays: 2.5 }, 'ttlDays', 'Invalid input: expected int, received number'],
    [{ name: 'x', scopes: ['admin'], ttlDays: '30' }, 'ttlDays', 'Invalid input: expected number, received string'],
    [{ name: 'x', scopes: ['admin'], extra: true }, '', 'Unrecognized key: "extra"'],
    [{ scopes: ['admin'] }, 'name', 'Invalid input: expected string, received undefined'],
  ])('refuses %j with a detail at %j', (body, path, message) => {
    expect(detailsOf(createTokenBody, body)).toEqual([{ path, message }]);
  });

  it('names every failed field, then the unknown keys', () => {
    expect(detailsOf(createTokenBody, JSON.parse('{"__proto__":{},"scopes":"admin","b":1}'))).toEqual([
      { path: 'name', message: 'Invalid input: expected string, received undefined' },
      { path: 'scopes', message: 'Invalid input: expected array, received string' },
      { path: '', message: 'Unrecognized keys: "__proto__", "b"' },
    ]);
  });

  it('refuses a body that is not an object', () => {
    expect(detailsOf(createTokenBody, [])).toEqual([
      { path: '', message: 'Invalid input: expected object, received array' },
    ]);
  });
});

describe('addMemberBody', () => {
  it('trims and lower-cases the e-mail', () => {
    expect(addMemberBody({ email: ' Ada@Example.COM ', role: 'admin' })).toEqual({
      email: 'ada@example.com',
      role: 'admin',
    });
  });

  it('refuses the owner role and a malformed e-mail', () => {
    expect(detailsOf(addMemberBody, { email: 'nope', role: 'owner' })).toEqual([
      { path: 'email', message: 'Invalid email address' },
      { path: 'role', message: 'Invalid option: expected one of "member"|"admin"' },
    ]);
  });
});

describe('createProjectBody', () => {
  it('needs a name of 1 to 100 characters', () => {
    expect(createProjectBody({ name: 'p' })).toEqual({ name: 'p' });
    expect(detailsOf(createProjectBody, { name: ' ' })).toEqual([
      { path: 'name', message: 'Too small: expected string to have >=1 characters' },
    ]);
  });
});
