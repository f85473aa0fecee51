import { routes } from '@contract/routes';
import { configureZod, issueMessage } from '@contract/schemas';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

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
  { name: 'ok', scopes: ['admin'], allowedIps: ['x'.repeat(65)], email: 'a@b.c', role: 'viewer' },
];

/** Query strings that break every rule of a trail's query. */
const BAD_QUERIES: readonly unknown[] = [
  { limit: '0', cursor: '', type: 'token.nope', since: 'yesterday', until: '2026-13-01T00:00:00Z', extra: 'x' },
  { limit: '101', cursor: 'x'.repeat(3000), since: '2026-11-23' },
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

const detailsOf = (schema: z.ZodMiniType, body: unknown) =>
  schema.safeParse(body).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

describe('validation details', () => {
  afterAll(() => z.config({ localeError: issueMessage }));

  it('read as zod’s own English for every rule of every body and query', () => {
    configureZod();
    const ours = cases().map(([schema, input]) => detailsOf(schema, input));
    z.config(en());
    const zods = cases().map(([schema, input]) => detailsOf(schema, input));
    expect(ours.flat().length).toBeGreaterThan(40);
    expect(ours).toEqual(zods);
  });
});
