import { ErrorText } from '@contract/errors';
import { MAX_BODY_BYTES } from '@contract/limits';
import type { RouteContract } from '@contract/route';
import { hasBody, routeErrors } from '@contract/route-table';
import { routes } from '@contract/routes';
import * as z from 'zod/mini';

/**
 * The tables of the docs that the route contracts give: the README's short API table, and docs/api.md's
 * route table (requests, answers, error statuses) and error table. `npm run docs` (bin/docs.ts) writes
 * each between its marker comments, and a unit test fails when a page differs.
 */

/** The common prefix of every route's path, which each page states once above its table. */
export const API_PREFIX = '/api/v1';

/** Where a generated table sits in its page: between `<!-- name:start -->` and `<!-- name:end -->`. */
export type TableName = 'api' | 'routes' | 'errors';

/**
 * The pages that hold generated tables (paths from the repository's root), with the tables of each:
 * the README keeps a short table for a user, docs/api.md the detail, so the README stays short.
 */
export const DOC_TABLES = {
  'README.md': ['api'],
  'docs/api.md': ['routes', 'errors'],
} as const satisfies Record<string, readonly TableName[]>;

/** A page that holds generated tables. */
export type DocPage = keyof typeof DOC_TABLES;

/** Some of the generated tables by their marker name: those of one page, or of a test's page. */
export type Tables = Partial<Record<TableName, string>>;

type ErrorKey = keyof typeof ErrorText;

/**
 * When each error is answered, in a client's words. Keyed by every `ErrorText`, so a new error text
 * cannot reach the API without a line here (the type checker asks for it).
 */
const WHEN: Readonly<Record<ErrorKey, string>> = {
  malformedJson: 'the body is not JSON',
  validation: 'the body or the query breaks the route’s schema; `details` lists each failed field: `[{path, message}]`',
  unauthorized:
    'no credential, another scheme, or a malformed, unknown, revoked or unverifiable one; a rotated token past its `stopsAt`; a session of an offboarded user',
  expired: 'an API token past its `expiresAt`, a session past its `exp`',
  identityNotAccepted:
    'a sign-in as a service account that proves nothing its trust rules accept: every reason alike (no such service account, no rule of the kind, a token or signed request refused); the reason is in the log and a `service_account.denied` event',
  wrongIp:
    'an API token used from an address it does not work from (its `allowedIps`, or else the address that created it)',
  scope: 'the API token lacks the route’s scope',
  tokenResource:
    'an API token limited to `projects`, outside them, or limited to environments and outside or above them',
  sessionRequired: 'an API token on a route for dashboard sessions only',
  serviceAccountForbidden:
    'a service account’s token on a route no service account may call: a project’s administration, its members, tokens, shares, webhooks, `/me`, approving or rejecting a change request',
  projectRole: 'the caller is a plain member of the project; the route needs its `owner` or an `admin`',
  environmentAccess:
    'the caller’s access to an environment is below what the route needs: `read` for lists, values, versions and export, in both environments of a compare and in a promote’s `from`; `write` for every change, and in a promote’s `to` (the refusal is recorded)',
  projectNotFound: 'no such project, or the caller is not one of its members',
  tokenNotFound: 'no such token among the caller’s',
  userNotFound: 'no user holds the address (a user must have signed in once to be added)',
  memberNotFound: 'no member of the project holds the address',
  alreadyMember: 'the user is a member already',
  ownerRemoval: 'the member to remove, or the caller leaving, is the project’s owner',
  tokenLimit: 'the caller already holds the most live tokens a user may (a rotated token counts until it stops)',
  tokenRotated: 'the token was rotated already',
  environmentNotFound: 'no such environment in the project',
  environmentExists: 'the project has an environment of that name',
  environmentLimit: 'the project holds 20 environments',
  environmentNotEmpty: 'the environment holds a live secret: delete its secrets first',
  environmentProtected: 'the environment is protected: a change goes through a change request, which `details` names',
  accessFixed: 'the member is the project’s owner or an admin, whose access is `write` everywhere',
  secretNotFound:
    'no such secret in the environment, or it was deleted (for a history or a restore: over 30 days ago); for a promote, a name not live in `from`',
  secretVersionNotFound: 'the secret has no such version, or that version is its delete',
  referenceUnresolved:
    'a value read or exported without `raw=true` holds a reference that cannot be resolved: to a secret that is missing or that the caller (or the token’s limits) may not read, alike; a cycle; more than 5 levels deep; or a resolved value longer than 64 KiB. `details` names each secret and its reference, `[{path: <secret>, message: "<the reference as written> <why>"}]`, never a value; nothing is recorded; or an export its resolved values make longer than 5,000,000 bytes',
  secretConflict: 'an `expectedVersion` (or one of `expectedVersions`) is not the secret’s current version',
  secretLimit: 'the write would take the environment over 1,000 live secrets or 5,000,000 bytes of export',
  changeRequestNotFound: 'no such change request in the environment (one closed over 90 days ago is gone)',
  changeRequestNotOpen:
    'the change request was applied, rejected, cancelled or found out of date already, or is past its 14 days',
  changeRequestOutOfDate:
    'a secret the change request names moved since it was proposed: nothing was written, and the request is now `conflicted`',
  changeRequestLimit: 'the environment holds 50 open change requests',
  ownApproval: 'the caller proposed the change request (also through a token): someone else must approve it',
  notAuthor: 'the caller did not propose the change request: an owner or admin rejects it instead',
  shareNotFound:
    'no such share, or one spent, expired, withdrawn or limited to other recipients (every refusal of a share is this one, so none tells that it exists)',
  shareLimit: 'the caller already holds 100 live shares',
  serviceAccountNotFound: 'no such service account in the project (one deleted is gone)',
  serviceAccountLimit: 'the project holds 50 service accounts',
  trustRuleNotFound: 'no such trust rule of the service account',
  trustRuleLimit: 'the service account holds 10 trust rules',
  webhookNotFound: 'no such webhook in the project',
  webhookLimit: 'the project has 10 webhooks already (delete one first)',
  tooLarge: `the body is over the route’s limit (${MAX_BODY_BYTES / 1024} KiB unless its contract sets another)`,
  contentType:
    'a body without a JSON `Content-Type` (a route whose body is optional also takes no body and no content type)',
  notFound: 'a path or method the API does not serve (answered by API Gateway, before any route)',
  tooManyRequests:
    'the credential sent more than its limit in the last minute (600 by default; with `Retry-After`), or the web ACL’s per-address rate rule, or the stage’s throttling',
  firewallBlocked:
    'the web ACL (on unless `waf=false`): an address on AWS’s reputation lists, or a request AWS’s common rule set matches',
  internal: 'a bug: the body says no more, the detail is in the function’s log',
  unavailable:
    'DynamoDB or the identity provider’s keys cannot be reached; retry after the `Retry-After` header’s seconds',
};

const ERROR_KEYS = Object.keys(ErrorText) as ErrorKey[];
const keyOf = (text: string): ErrorKey => {
  const key = ERROR_KEYS.find((candidate) => ErrorText[candidate] === text);
  if (!key) throw new Error(`"${text}" is not one of ErrorText`);
  return key;
};

/** A route's path as the README shows it, under the prefix stated above the table. */
const shortPath = (contract: RouteContract): string =>
  contract.path.startsWith(`${API_PREFIX}/`) ? contract.path.slice(API_PREFIX.length) : contract.path;

const routeLabel = (contract: RouteContract): string => `${contract.method} \`${shortPath(contract)}\``;

// A table cell must not break the row.
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

type Def = {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  element?: z.ZodMiniType;
  valueType?: z.ZodMiniType;
  innerType?: z.ZodMiniType;
  values?: unknown[];
};
const defOf = (schema: z.ZodMiniType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Optional, nullable and defaulted schemas show as what they wrap. */
const unwrap = (schema: z.ZodMiniType): z.ZodMiniType => {
  const def = defOf(schema);
  return def.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly'].includes(def.type)
    ? unwrap(def.innerType)
    : schema;
};

/**
 * The outline of a JSON value a schema describes: an object's keys (with their outline when it is an
 * object, an array of objects, a record or a fixed value), `[…]` around an array of objects, a record as
 * `{NAME: <its values>}`, and a named schema (the API document's component) by its name.
 */
const outline = (schema: z.ZodMiniType): string | undefined => {
  const inner = unwrap(schema);
  const name = z.globalRegistry.get(inner)?.id;
  if (name) return name;
  const def = defOf(inner);
  if (def.type === 'literal') return JSON.stringify(def.values?.[0]);
  if (def.type === 'array' && def.element) {
    const element = outline(def.element);
    return element === undefined ? undefined : `[${element}]`;
  }
  if (def.type === 'record' && def.valueType) {
    // Keyed by secret names (the only records the API has), so shown as one such key and its value's type.
    return `{NAME: ${outline(def.valueType) ?? defOf(unwrap(def.valueType)).type}}`;
  }
  if (def.type === 'object' && def.shape) {
    const fields = Object.entries(def.shape).map(([key, value]) => {
      const shown = outline(value);
      return shown === undefined ? key : `${key}: ${shown}`;
    });
    return `{${fields.join(', ')}}`;
  }
  return undefined;
};

/** A success body without the `success: true` every success body carries, unless that is all it has. */
const successOutline = (contract: RouteContract): string => {
  const response = unwrap(contract.schemas().response);
  const shape = defOf(response).shape;
  if (!shape) return outline(response) ?? 'JSON';
  const { success: _success, ...rest } = shape;
  if (Object.keys(rest).length === 0) return '{success: true}';
  return outline(z.object(rest)) ?? 'JSON';
};

const requestOutline = (contract: RouteContract): string => {
  const { body, query } = contract.schemas();
  const parts: string[] = [];
  if (body) {
    const optional = body.safeParse(undefined).success;
    parts.push(`body \`${outline(body) ?? 'JSON'}\`${optional ? ' (optional)' : ''}`);
  }
  if (query) {
    const keys = Object.keys(defOf(query).shape ?? {});
    parts.push(`query ${keys.map((key) => `\`${key}\``).join(', ')}`);
  }
  return parts.join('; ') || '–';
};

const tokenNeeds = (contract: RouteContract): string => {
  if (contract.signIn) return 'no credential';
  return contract.tokenScope === null ? 'no token (403)' : `\`${contract.tokenScope}\``;
};

const successStatus = (contract: RouteContract): string =>
  `${contract.success.created === undefined ? '' : '201 or '}${contract.success.status}`;

/** The methods of the README's API table, one column each. */
const API_TABLE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * What the README's API table writes for the longest beginnings of paths (the first that fits), each
 * named under the table: the page stays within its size as routes are added.
 */
export const API_TABLE_SHORTHANDS = [
  ['E', '/projects/{projectId}/environments/{environment}'],
  ['S', '/projects/{projectId}/service-accounts/{serviceAccountId}'],
  ['P', '/projects/{projectId}'],
] as const;

/** How the README's API table marks a method a service account's token may call. */
export const SERVICE_ACCOUNT_MARK = 'SA';

/** A path as the README's API table writes it (a shorthand's own path with the others only). */
const tablePath = (path: string, besides?: string): string => {
  const found = API_TABLE_SHORTHANDS.find(
    ([short, long]) => short !== besides && (path === long || path.startsWith(`${long}/`)),
  );
  return found === undefined ? path : `${found[0]}${path.slice(found[1].length)}`;
};

/**
 * The README's API table: one row per path, in the order of `routes`, and under each method the path
 * serves, what an API token needs there and the success status; what each does is docs/api.md's (the
 * README stays a short page as routes are added).
 */
export const renderApiTable = (): string => {
  const byPath = new Map<string, RouteContract[]>();
  for (const contract of routes)
    byPath.set(shortPath(contract), [...(byPath.get(shortPath(contract)) ?? []), contract]);
  const unknown = routes.find((contract) => !(API_TABLE_METHODS as readonly string[]).includes(contract.method));
  if (unknown) throw new Error(`The README's API table has no column for ${unknown.method}`);
  const rows = [...byPath].map(([path, served]) => {
    const cells = API_TABLE_METHODS.map((method) => {
      const contract = served.find((candidate) => candidate.method === method);
      if (contract === undefined) return '';
      const machines = contract.serviceAccounts ? `, ${SERVICE_ACCOUNT_MARK}` : '';
      return `${tokenNeeds(contract)}, ${successStatus(contract)}${machines}`;
    });
    return `| ${[`\`${tablePath(path)}\``, ...cells].join(' | ')} |`.replace(/ {2}\|/g, ' |');
  });
  const legend = API_TABLE_SHORTHANDS.map(([short, long]) => `\`${short}\` is \`${tablePath(long, short)}\``);
  return [
    `| path | ${API_TABLE_METHODS.join(' | ')} |`,
    `| --- | ${API_TABLE_METHODS.map(() => '---').join(' | ')} |`,
    ...rows,
    '',
    `${legend.join(', ')}; ${SERVICE_ACCOUNT_MARK}: a service account's token may call it too.`,
  ].join('\n');
};

/** docs/api.md's route table: one row per route, in the order of `routes`, its request and its answers. */
export const renderRouteTable = (): string => {
  const rows = routes.map(
    (contract) =>
      `| ${[
        contract.method,
        `\`${shortPath(contract)}\``,
        cell(requestOutline(contract)),
        `${successStatus(contract)} \`${cell(successOutline(contract))}\``,
        [...routeErrors(contract).keys()].join(', '),
      ].join(' | ')} |`,
  );
  return ['| method | path | request | success | error statuses |', '| --- | --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
};

const sameRoutes = (a: readonly RouteContract[], b: readonly RouteContract[]): boolean =>
  a.length === b.length && a.every((contract) => b.includes(contract));

/** Groups of routes the error table names in words rather than listing them. */
const NAMED_GROUPS: readonly [string, readonly RouteContract[]][] = [
  ['every route', routes],
  ['every route with a body', routes.filter(hasBody)],
  ['every route an API token may call', routes.filter((contract) => contract.tokenScope !== null)],
];

/** Which routes answer a text under a status, in as few words as the contracts allow. */
const routesLabel = (answering: readonly RouteContract[]): string => {
  if (answering.length === 0) return 'API Gateway, for a path no route serves';
  const named = NAMED_GROUPS.find(([, group]) => sameRoutes(group, answering));
  return named ? named[0] : answering.map(routeLabel).join(', ');
};

/**
 * The error table: every status and text any route answers (`routeErrors`), then the texts only the
 * gateway answers, each with when it comes and from which routes.
 */
export const renderErrorTable = (): string => {
  const answered = new Map<string, { status: number; text: string; routes: RouteContract[] }>();
  for (const contract of routes) {
    for (const [status, texts] of routeErrors(contract)) {
      for (const text of texts) {
        const id = `${status} ${text}`;
        const row = answered.get(id) ?? { status, text, routes: [] };
        row.routes.push(contract);
        answered.set(id, row);
      }
    }
  }
  const rows = [...answered.values()];
  const routeTexts = new Set(rows.map((row) => row.text));
  for (const key of ERROR_KEYS.filter((candidate) => !routeTexts.has(ErrorText[candidate]))) {
    // Only an unknown path is answered outside every route; its status is the gateway's 404.
    if (key !== 'notFound') throw new Error(`ErrorText.${key} is answered by no route: say where it comes from`);
    rows.push({ status: 404, text: ErrorText[key], routes: [] });
  }
  const order = (text: string) => ERROR_KEYS.indexOf(keyOf(text));
  rows.sort((a, b) => a.status - b.status || order(a.text) - order(b.text));
  const lines = rows.map(
    (row) => `| ${row.status} | \`${row.text}\` | ${cell(WHEN[keyOf(row.text)])} | ${routesLabel(row.routes)} |`,
  );
  return ['| status | error | when | routes |', '| --- | --- | --- | --- |', ...lines].join('\n');
};

const RENDER: Readonly<Record<TableName, () => string>> = {
  api: renderApiTable,
  routes: renderRouteTable,
  errors: renderErrorTable,
};

/** The generated tables of one page, by their marker name. */
export const renderTables = (page: DocPage): Tables =>
  Object.fromEntries(DOC_TABLES[page].map((name) => [name, RENDER[name]()]));

const markers = (name: TableName) => ({ start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` });

const namesOf = (tables: Tables): TableName[] => Object.keys(tables) as TableName[];

/** The text between a table's markers, or `undefined` when the page lacks them. */
export const markedSection = (page: string, name: TableName): string | undefined => {
  const { start, end } = markers(name);
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) return undefined;
  return page.slice(from + start.length, to).trim();
};

/** The page with each table's marked section replaced by its rendering. */
export const withTables = (page: string, tables: Tables): string =>
  namesOf(tables).reduce((text, name) => {
    const { start, end } = markers(name);
    if (markedSection(text, name) === undefined) throw new Error(`no ${start} … ${end} section`);
    const from = text.indexOf(start) + start.length;
    return `${text.slice(0, from)}\n${tables[name]}\n${text.slice(text.indexOf(end))}`;
  }, page);

/** The tables whose marked section in the page differs from their rendering. */
export const staleTables = (page: string, tables: Tables): TableName[] =>
  namesOf(tables).filter((name) => markedSection(page, name) !== tables[name]);
