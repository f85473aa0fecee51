import { MAX_ALLOWED_IPS, MAX_NAME_LENGTH, MAX_TTL_DAYS } from '@contract/limits';
import { routes } from '@contract/routes';
import { addMemberRoute } from '@contract/routes/add-member';
import { createProjectRoute } from '@contract/routes/create-project';
import { createTokenRoute } from '@contract/routes/create-token';
import { listAuditEventsRoute } from '@contract/routes/list-audit-events';
import { rotateTokenRoute } from '@contract/routes/rotate-token';
import * as z from 'zod/mini';

/** What a rule without a message of its own would say: zod/mini, told no language, falls back to a locale. */
const UNWRITTEN = 'NO MESSAGE WRITTEN FOR THIS RULE';

/** Bodies that break every kind of rule a route's body schema has. */
const BAD_BODIES: readonly unknown[] = [
  null,
  42,
  'text',
  [],
  {},
  { name: '', scopes: [], ttlDays: 0, graceHours: -1, email: 'no', role: 'owner', extra: true },
  { name: 'x'.repeat(101), scopes: ['admin', 'admin'], ttlDays: 3651, graceHours: 1.5, allowedIps: [] },
  { name: 7, scopes: ['nope'], ttlDays: '30', graceHours: 169, allowedIps: Array(11).fill('1.2.3.4') },
  { name: 'ok', scopes: 'admin', allowedIps: ['x'.repeat(65), 7], email: 'a@b.c', role: 'viewer' },
  { name: null, scopes: null, ttlDays: 1.5, allowedIps: '10.0.0.1', email: 7, role: null, graceHours: '1' },
  { value: 7, expectedVersion: -1, set: { '1A': 'x', B: 7 }, delete: 'A', expectedVersions: { B: 'one' } },
  { value: '\ud800', expectedVersion: 'one', set: [], delete: ['A', 'A', '9'], expectedVersions: null, version: 0 },
  { value: 'é'.repeat(40_000), set: JSON.parse('{"__proto__": "x"}'), version: 'one' },
];

/** Query strings that break every rule of a trail's query. */
const BAD_QUERIES: readonly unknown[] = [
  { limit: '0', cursor: '', type: 'token.nope', since: 'yesterday', until: '2026-13-01T00:00:00Z', extra: 'x' },
  { limit: '101', cursor: 'x'.repeat(3000), since: '2026-11-23', other: 'y' },
];

/** Every body and query schema, each with the inputs that break it. */
const cases = () =>
  routes.flatMap((route) => {
    const { body, query } = route.schemas();
    return [
      ...(body ? BAD_BODIES.map((input) => [body, input] as const) : []),
      ...(query ? BAD_QUERIES.map((input) => [query, input] as const) : []),
    ];
  });

/** The validation details a schema gives `input`, as the API answers them. */
const detailsOf = (schema: z.ZodMiniType | undefined, input: unknown) =>
  schema?.safeParse(input).error?.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) ?? [];

const bodyOf = (route: { schemas: () => { body?: z.ZodMiniType } }) => route.schemas().body;

describe('validation details', () => {
  beforeAll(() => z.config({ localeError: () => UNWRITTEN }));
  afterAll(() => z.config({ localeError: undefined }));

  it('carry a message written for people on every rule of every body and query, never zod’s words', () => {
    const details = cases().flatMap(([schema, input]) => detailsOf(schema, input));
    expect(details.length).toBeGreaterThan(80);
    const messages = [...new Set(details.map((detail) => detail.message))];
    expect(messages.filter((message) => message === UNWRITTEN)).toEqual([]);
    expect(
      messages.filter((message) =>
        /^(Invalid input|Invalid option|Invalid string|Too (small|big)|Unrecognized keys?)\b|\bexpected\b|\breceived\b/.test(
          message,
        ),
      ),
    ).toEqual([]);
    // Each message reads as a sentence of its own: a capital first, no full stop (the API's texts have none).
    for (const message of messages) expect(message).toMatch(/^[A-Z].*[^.]$/);
  });

  it.each([
    [{ name: 'ci', scopes: [] }, 'scopes', 'Choose at least one scope'],
    [{ name: 'ci' }, 'scopes', 'Choose at least one scope'],
    [{ name: 'ci', scopes: 'admin' }, 'scopes', 'Send the scopes as a list, e.g. ["read:secrets"]'],
    [{ name: 'ci', scopes: ['admin', 'admin'] }, 'scopes', 'Name each scope once'],
    [{ name: 'ci', scopes: ['root'] }, 'scopes.0', expect.stringMatching(/^Not a scope: the scopes are .*\badmin\b/)],
    [{ scopes: ['admin'] }, 'name', 'Give a name'],
    [{ name: '   ', scopes: ['admin'] }, 'name', 'Give a name: it is empty or only spaces'],
    [{ name: 'x'.repeat(101), scopes: ['admin'] }, 'name', `A name has at most ${MAX_NAME_LENGTH} characters`],
    [
      { name: ' ci\u200bdeploy ', scopes: ['admin'] },
      'name',
      'Must not contain invisible, formatting or control characters, line or paragraph separators or unpaired surrogates, which make a name look like another: U+200B at character 3',
    ],
    [
      { name: '🚀 tag\u{e0041}', scopes: ['admin'] },
      'name',
      'Must not contain invisible, formatting or control characters, line or paragraph separators or unpaired surrogates, which make a name look like another: U+E0041 at character 6',
    ],
    [{ name: 'ci', scopes: ['admin'], ttlDays: 0 }, 'ttlDays', 'A token lives at least 1 day'],
    [
      { name: 'ci', scopes: ['admin'], ttlDays: 1.5 },
      'ttlDays',
      `A whole number of days from 1 to ${MAX_TTL_DAYS}, or null for a token that never expires`,
    ],
    [
      { name: 'ci', scopes: ['admin'], allowedIps: [] },
      'allowedIps',
      'List at least one address, or leave allowedIps out for the creating address',
    ],
    [
      { name: 'ci', scopes: ['admin'], allowedIps: Array(11).fill('10.0.0.1') },
      'allowedIps',
      `List at most ${MAX_ALLOWED_IPS} addresses or CIDRs`,
    ],
    [
      { name: 'ci', scopes: ['admin'], owner: 'me' },
      '',
      'Unknown field "owner": the fields are name, scopes, ttlDays, allowedIps, projects',
    ],
    [null, '', 'Send a JSON object with the fields name, scopes, ttlDays, allowedIps, projects'],
  ])('create token: %j gets the detail at %j: %s', (body, path, message) => {
    expect(detailsOf(bodyOf(createTokenRoute), body)).toEqual([{ path, message }]);
  });

  it('names each too long or non-text entry of allowedIps on its own', () => {
    const body = { name: 'ci', scopes: ['admin'], allowedIps: ['10.0.0.1', 'x'.repeat(65), 7] };
    expect(detailsOf(bodyOf(createTokenRoute), body)).toEqual([
      { path: 'allowedIps.1', message: 'Not an IP address or CIDR: longer than any' },
      { path: 'allowedIps.2', message: 'An address or CIDR is text, e.g. "203.0.113.7"' },
    ]);
  });

  it('tells the other bodies and the trail query in words too', () => {
    expect(detailsOf(bodyOf(createProjectRoute), {})).toEqual([{ path: 'name', message: 'Give a name' }]);
    expect(detailsOf(bodyOf(addMemberRoute), { email: 'no', role: 'owner' })).toEqual([
      { path: 'email', message: 'Not an e-mail address: printable ASCII with one @ between a name and a domain' },
      { path: 'role', message: 'Choose a role: member or admin' },
    ]);
    expect(detailsOf(bodyOf(rotateTokenRoute), { graceHours: 169 })).toEqual([
      { path: 'graceHours', message: 'The grace period is at most 168 hours' },
    ]);
    expect(detailsOf(listAuditEventsRoute.schemas().query, { limit: '0', since: 'yesterday' })).toEqual([
      { path: 'limit', message: 'A whole number of events from 1 to 100' },
      { path: 'since', message: 'Not an instant: write it in ISO 8601 UTC, e.g. 2026-11-21T23:23:35Z' },
    ]);
  });
});
