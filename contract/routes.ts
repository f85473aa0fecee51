import * as z from 'zod/mini';
import { ErrorText } from './errors';
import { DEFAULT_TTL_DAYS, MAX_TTL_DAYS } from './limits';
import { grantableRoles } from './roles';
import {
  apiToken,
  configureZod,
  dataBody,
  displayPrefix,
  type ErrorTextValue,
  email,
  messageBody,
  name,
  projectId,
  role,
  scope,
  successBody,
  timestamp,
  tokenId,
} from './schemas';
import type { Scope } from './scopes';
import { scopes } from './scopes';
import {
  MEMBERS_ADDED_METRIC,
  MEMBERS_REMOVED_METRIC,
  TOKENS_CREATED_METRIC,
  TOKENS_REVOKED_METRIC,
} from './service-metrics';
import { type KeyPrefix, keyPrefix } from './table-schema';
import type { FloorCall } from './work';

/** A DynamoDB action one of our functions may perform. Scan is deliberately not one of them. */
export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:ConditionCheckItem'
  | 'dynamodb:Query';

/** Actions a function may perform on some partitions of the table or of its list index. */
export interface TableGrant {
  /** The actions (a TransactWriteItems call needs the action of each of its parts). */
  readonly actions: readonly TableAction[];
  /** The partitions they may touch, by key prefix: the grant's condition on `dynamodb:LeadingKeys`. */
  readonly partitions: readonly KeyPrefix[];
  /** On the list index (GSI1), whose partition keys `partitions` then name, rather than the table. */
  readonly listIndex?: boolean;
}

/** What one function may do to the table; the stack grants exactly this and nothing else. */
export type TableAccess = readonly TableGrant[];

/** HTTP methods the API serves. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

type NonEmpty<T> = readonly [T, ...T[]];

/** The schemas of a route: path parameters, JSON body (body routes only), success answer. */
export interface RouteSchemas {
  readonly params?: z.ZodMiniObject;
  readonly body?: z.ZodMiniType;
  readonly response: z.ZodMiniType;
}

/**
 * One route's whole contract, the single source of truth for the stack, the local gateway, the
 * authorizer's rules, request validation, the API document, the tests that walk every route and the
 * bench. Adding a route adds one of these to `routes` below, its handler, its data access and its test.
 */
export interface RouteContract<S extends RouteSchemas = RouteSchemas> {
  readonly method: HttpMethod;
  /** Resource path in API Gateway form, with `{param}` segments. */
  readonly path: string;
  /** Module in `lambdas/handlers/` that serves the route; it exports `handler`. */
  readonly handler: string;
  /**
   * Scope an API token needs (`admin` grants every scope), or `null` when API tokens may not call the
   * route at all. Sessions may call every route.
   */
  readonly tokenScope: Scope | null;
  /** One line for people: logs, the README and the API document. */
  readonly summary: string;
  /** The success answer's status and its description in the API document. */
  readonly success: { readonly status: 200 | 201; readonly description: string };
  /**
   * The texts of the errors the route's own work can answer, beyond the ones every route or every
   * body route answers (derived in `routeErrors`). A malformed path parameter answers the 404 text
   * `paramErrors` names for it, which must be among `notFound`.
   */
  readonly errors: {
    readonly forbidden?: NonEmpty<ErrorTextValue>;
    readonly notFound?: NonEmpty<ErrorTextValue>;
    readonly conflict?: NonEmpty<ErrorTextValue>;
  };
  /** The 404 text a path parameter that breaks its schema answers, per parameter. */
  readonly paramErrors?: Readonly<Record<string, ErrorTextValue>>;
  /** Least-privilege table access of the route's function. */
  readonly tableAccess: TableAccess;
  /** Metric counted once per successful request, for routes that change state worth counting. */
  readonly successMetric?: string;
  /**
   * The least DynamoDB calls a successful request needs, by its access pattern (docs/data-model.md):
   * `npm run bench` and the integration suite hold the route to them. Why each is needed is a comment.
   */
  readonly work: readonly FloorCall[];
  /**
   * The route's schemas, built on its first call and kept: a function builds its own route's only,
   * when its first request needs them, not at load.
   */
  readonly schemas: () => S;
  /**
   * A request that succeeds in `world`: the tests that walk every route send it (with `SAMPLE_WORLD`'s
   * well-formed ids), and the bench measures each route's work with it in a world made for it.
   */
  readonly sample: (world: SampleWorld) => SampleRequest;
}

/**
 * What a sample request may refer to: the caller owns a project with one other member, holds a
 * spare token, and another user has signed in but belongs to no project of the caller's.
 */
export interface SampleWorld {
  readonly projectId: string;
  readonly tokenId: string;
  readonly memberEmail: string;
  readonly otherEmail: string;
}

/** A world of well-formed values, for requests whose outcome does not depend on stored data. */
export const SAMPLE_WORLD: SampleWorld = {
  projectId: 'prj_AAAAAAAAAAAAAAAA',
  tokenId: 'AAAAAAAAAAAA',
  memberEmail: 'member@example.com',
  otherEmail: 'someone@example.com',
};

/** A request: its raw path parameters (as they appear in the path, percent-encoded) and JSON body. */
export interface SampleRequest {
  readonly params?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** A route contract whose schemas are built once, on first use. */
const route = <S extends RouteSchemas>(contract: RouteContract<S>): RouteContract<S> => {
  let built: S | undefined;
  return {
    ...contract,
    schemas: () => {
      if (!built) {
        configureZod();
        built = contract.schemas();
      }
      return built;
    },
  };
};

/** What a route's handler receives after validation: its body and path parameters, as its schemas give them. */
export type RouteInput<R> =
  R extends RouteContract<infer S>
    ? {
        readonly body: S['body'] extends z.ZodMiniType ? z.output<S['body']> : undefined;
        readonly params: S['params'] extends z.ZodMiniType ? z.output<S['params']> : Record<string, never>;
      }
    : never;

type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The success body of a route, as its response schema describes it (read-only data is welcome). */
export type RouteAnswer<R> = R extends RouteContract<infer S> ? DeepReadonly<z.input<S['response']>> : never;

const tokenListEntry = () =>
  z.object({
    id: tokenId(),
    name: z.string(),
    displayPrefix: displayPrefix(),
    scopes: z.array(scope()),
    createdAt: timestamp(),
    expiresAt: z.nullable(timestamp()),
    lastUsedAt: z.nullable(timestamp()),
  });

/**
 * The authorizer's table access: token and profile items only. It reads the token (strongly
 * consistent) and records `lastUsedAt` at most once a minute; it reads a session's profile and, at
 * most once a day or when the address changes, writes the profile and the address's claim (releasing
 * the claim on a previous address).
 */
export const authorizerTableAccess: TableAccess = [
  { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], partitions: [keyPrefix.token] },
  { actions: ['dynamodb:GetItem', 'dynamodb:PutItem'], partitions: [keyPrefix.user] },
  { actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'], partitions: [keyPrefix.email] },
];

/**
 * The offboarding function's table access (`npm run offboard` has the operator's own): it finds the
 * user by address and lists their tokens and memberships, marks their token slots, revokes each
 * token, removes each membership but ownerships, and releases their address.
 */
export const offboardingTableAccess: TableAccess = [
  { actions: ['dynamodb:Query'], partitions: [keyPrefix.user], listIndex: true },
  { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], partitions: [keyPrefix.user] },
  { actions: ['dynamodb:GetItem', 'dynamodb:DeleteItem'], partitions: [keyPrefix.email] },
  { actions: ['dynamodb:DeleteItem'], partitions: [keyPrefix.token, keyPrefix.project] },
];

export const createTokenRoute = route({
  method: 'POST',
  path: '/api/v1/tokens',
  handler: 'create-token',
  tokenScope: null,
  summary: 'Create an API token (dashboard session only)',
  success: { status: 201, description: 'The new token; `rawToken` appears in this response only' },
  errors: { conflict: [ErrorText.tokenLimit] },
  // Reads the user's token slots, then puts the token and updates the slots (puts the first) in one transaction.
  tableAccess: [
    { actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], partitions: [keyPrefix.user] },
    { actions: ['dynamodb:PutItem'], partitions: [keyPrefix.token] },
  ],
  successMetric: TOKENS_CREATED_METRIC,
  // Least work (create a token under the limit): The slots say which tokens are still live (expired
  // ones free their slot), so they must be read; the version check makes a stale read safe, but it
  // would cancel a 6-unit transaction and retry, so the read is strong (0.5 units more on a rare
  // route). Token and slots in one transaction; the slots are updated (put for a user’s first
  // token).
  work: [
    { operation: 'GetItem', entity: 'TokenSlots', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
      ],
    },
  ],
  schemas: () => ({
    body: z.strictObject({
      name: name(),
      scopes: z.array(z.enum(scopes)).check(
        z.minLength(1),
        z.refine((list) => new Set(list).size === list.length, 'Scopes must be unique'),
      ),
      ttlDays: z._default(z.nullable(z.int().check(z.gte(1), z.lte(MAX_TTL_DAYS))), DEFAULT_TTL_DAYS),
    }),
    response: dataBody(
      z.object({
        id: tokenId(),
        name: z.string(),
        rawToken: apiToken(),
        displayPrefix: displayPrefix(),
        scopes: z.array(scope()),
        expiresAt: z.nullable(timestamp()),
      }),
    ),
  }),
  sample: () => ({ body: { name: 'ci-pipeline', scopes: ['read:secrets', 'admin'], ttlDays: 30 } }),
});

export const listTokensRoute = route({
  method: 'GET',
  path: '/api/v1/tokens',
  handler: 'list-tokens',
  tokenScope: 'admin',
  summary: "List the caller's tokens, newest first",
  success: { status: 200, description: "The caller's active and expired tokens, newest first" },
  errors: {},
  tableAccess: [{ actions: ['dynamodb:Query'], partitions: [keyPrefix.user], listIndex: true }],
  // Least work (list a user’s tokens): One page of the user’s partition of the list index (an index
  // read is eventually consistent).
  work: [{ operation: 'Query', entity: 'Token', consistent: false, index: 'GSI1' }],
  schemas: () => ({ response: dataBody(z.array(tokenListEntry())) }),
  sample: () => ({}),
});

export const revokeTokenRoute = route({
  method: 'DELETE',
  path: '/api/v1/tokens/{id}',
  handler: 'revoke-token',
  tokenScope: 'admin',
  summary: 'Revoke one of the caller’s tokens',
  success: { status: 200, description: 'Revoked; its next use is a 401' },
  errors: { notFound: [ErrorText.tokenNotFound] },
  paramErrors: { id: ErrorText.tokenNotFound },
  // Deletes the token and frees its slot in one transaction.
  tableAccess: [
    { actions: ['dynamodb:DeleteItem'], partitions: [keyPrefix.token] },
    { actions: ['dynamodb:UpdateItem'], partitions: [keyPrefix.user] },
  ],
  successMetric: TOKENS_REVOKED_METRIC,
  // Least work (revoke a token): The owner check is the Delete’s condition, so no read; the slot is
  // freed in the same transaction.
  work: [
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
      ],
    },
  ],
  schemas: () => ({ params: z.object({ id: tokenId() }), response: successBody() }),
  sample: (world) => ({ params: { id: world.tokenId } }),
});

export const createProjectRoute = route({
  method: 'POST',
  path: '/api/v1/projects',
  handler: 'create-project',
  tokenScope: 'admin',
  summary: 'Create a project owned by the caller',
  success: { status: 201, description: 'The new project; the caller is its owner' },
  errors: {},
  // Puts project + owner membership in one transaction.
  tableAccess: [{ actions: ['dynamodb:PutItem'], partitions: [keyPrefix.project] }],
  // Least work (create a project): Project and owner membership together, so no project is ever
  // without its owner.
  work: [
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Project' },
        { action: 'Put', entity: 'Member' },
      ],
    },
  ],
  schemas: () => ({
    body: z.strictObject({ name: name() }),
    response: dataBody(z.object({ projectId: projectId(), name: z.string(), createdAt: timestamp() })),
  }),
  sample: () => ({ body: { name: 'payments' } }),
});

export const listProjectsRoute = route({
  method: 'GET',
  path: '/api/v1/projects',
  handler: 'list-projects',
  tokenScope: 'read:secrets',
  summary: 'List the projects the caller belongs to',
  success: { status: 200, description: "The caller's projects with the caller's role" },
  errors: {},
  tableAccess: [{ actions: ['dynamodb:Query'], partitions: [keyPrefix.user], listIndex: true }],
  // Least work (list a user’s projects): One page of the user’s partition of the list index; each
  // membership carries the project’s name.
  work: [{ operation: 'Query', entity: 'Member', consistent: false, index: 'GSI1' }],
  schemas: () => ({
    response: dataBody(
      z.array(z.object({ projectId: projectId(), name: z.string(), createdAt: timestamp(), role: role() })),
    ),
  }),
  sample: () => ({}),
});

export const listMembersRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/members',
  handler: 'list-members',
  tokenScope: 'read:secrets',
  summary: 'List the members of a project',
  success: { status: 200, description: 'The members, owner first, then by e-mail' },
  errors: { notFound: [ErrorText.projectNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // A strongly consistent query of the project's partition (membership decides access), then the
  // members' profiles for their addresses.
  tableAccess: [
    { actions: ['dynamodb:Query'], partitions: [keyPrefix.project] },
    { actions: ['dynamodb:BatchGetItem'], partitions: [keyPrefix.user] },
  ],
  // Least work (list members (decides access)): The project’s partition, strongly consistent because
  // the caller’s own membership in it decides access; then each member’s profile, whose address
  // follows their latest session (eventual: display only). The sample world’s project has two
  // members.
  work: [
    { operation: 'Query', entity: 'Member', consistent: true },
    { operation: 'BatchGetItem', entity: 'Profile', consistent: false, items: 2 },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    response: dataBody(z.array(z.object({ userId: z.string(), email: z.string(), role: role() }))),
  }),
  sample: (world) => ({ params: { projectId: world.projectId } }),
});

export const addMemberRoute = route({
  method: 'POST',
  path: '/api/v1/projects/{projectId}/members',
  handler: 'add-member',
  tokenScope: 'admin',
  summary: 'Add a member to a project',
  success: { status: 200, description: 'Added' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.userNotFound],
    conflict: [ErrorText.alreadyMember],
  },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // The caller's membership and the address's claim, then a condition check on the caller + put of the member.
  tableAccess: [
    {
      actions: ['dynamodb:GetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:PutItem'],
      partitions: [keyPrefix.project],
    },
    { actions: ['dynamodb:GetItem'], partitions: [keyPrefix.email] },
  ],
  successMetric: MEMBERS_ADDED_METRIC,
  // Least work (add a member): The caller’s membership (role, and the project name the new
  // membership carries) and the address’s claim, which names the user (strong: a user who has just
  // signed in must be found), then the role re-checked and the member put if absent, atomically.
  work: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Put', entity: 'Member' },
      ],
    },
  ],
  schemas: () => ({
    params: z.object({ projectId: projectId() }),
    body: z.strictObject({ email: email(), role: z.enum(grantableRoles) }),
    response: messageBody('Member added successfully'),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId },
    body: { email: world.otherEmail, role: 'member' },
  }),
});

export const removeMemberRoute = route({
  method: 'DELETE',
  path: '/api/v1/projects/{projectId}/members/{email}',
  handler: 'remove-member',
  tokenScope: 'admin',
  summary: 'Remove a member from a project',
  success: { status: 200, description: 'Removed' },
  errors: {
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.memberNotFound],
    conflict: [ErrorText.ownerRemoval],
  },
  paramErrors: { projectId: ErrorText.projectNotFound, email: ErrorText.memberNotFound },
  // The address's claim, then a condition check on the caller + delete of the member (reads explain a refusal).
  tableAccess: [
    {
      actions: ['dynamodb:GetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem'],
      partitions: [keyPrefix.project],
    },
    { actions: ['dynamodb:GetItem'], partitions: [keyPrefix.email] },
  ],
  successMetric: MEMBERS_REMOVED_METRIC,
  // Least work (remove a member): The address’s claim names the member (strong: the member is keyed
  // by user id); then the caller’s role checked and the member deleted unless owner, atomically. The
  // caller’s and the member’s items are read only to explain a refusal (404, 403 or 409).
  work: [
    { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Delete', entity: 'Member' },
      ],
    },
  ],
  schemas: () => ({
    params: z.object({
      projectId: projectId(),
      email: z.pipe(email(), z.string().check(z.describe('The member e-mail, percent-encoded (`@` as `%40`)'))),
    }),
    response: messageBody('Member removed successfully'),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, email: encodeURIComponent(world.memberEmail) },
  }),
});

/** Every route of the API. */
export const routes: readonly RouteContract[] = [
  createTokenRoute,
  listTokensRoute,
  revokeTokenRoute,
  createProjectRoute,
  listProjectsRoute,
  listMembersRoute,
  addMemberRoute,
  removeMemberRoute,
];

/** The key API Gateway's authorizer event carries for a route: `${httpMethod} ${resource}`. */
export const routeKey = (method: string, path: string): string => `${method} ${path}`;

/**
 * The authorizer's rule per route, route key → the scope an API token needs (`null`: sessions only),
 * as the JSON of its `ROUTE_SCOPES` variable. The authorizer is handed its rules rather than importing
 * the contracts, whose schemas it never uses and would load on every cold start.
 */
export const routeScopesJson = (): string =>
  JSON.stringify(
    Object.fromEntries(routes.map((contract) => [routeKey(contract.method, contract.path), contract.tokenScope])),
  );

const routesByKey = new Map(routes.map((contract) => [routeKey(contract.method, contract.path), contract]));

/** The route for an authorizer or proxy event's method and resource, if it is one of ours. */
export const findRoute = (method: string, resource: string): RouteContract | undefined =>
  routesByKey.get(routeKey(method, resource));

/** Whether a route reads a JSON request body. */
export const hasBody = (contract: RouteContract): boolean => contract.schemas().body !== undefined;

/** Every error status a route can answer, with its texts, derived from its contract. */
export const routeErrors = (contract: RouteContract): ReadonlyMap<number, NonEmpty<ErrorTextValue>> => {
  const withBody = hasBody(contract);
  const errors = new Map<number, NonEmpty<ErrorTextValue>>();
  if (withBody) errors.set(400, [ErrorText.malformedJson, ErrorText.validation]);
  errors.set(401, [ErrorText.unauthorized, ErrorText.expired]);
  // The authorizer's order: source IP before the route's scope rule (DESIGN.md); the firewall's own.
  errors.set(403, [
    ErrorText.wrongIp,
    contract.tokenScope === null ? ErrorText.sessionRequired : ErrorText.scope,
    ...(contract.errors.forbidden ?? []),
    ErrorText.firewallBlocked,
  ]);
  if (contract.errors.notFound) errors.set(404, contract.errors.notFound);
  if (contract.errors.conflict) errors.set(409, contract.errors.conflict);
  if (withBody) {
    errors.set(413, [ErrorText.tooLarge]);
    errors.set(415, [ErrorText.contentType]);
  }
  errors.set(429, [ErrorText.tooManyRequests]);
  errors.set(500, [ErrorText.internal]);
  errors.set(503, [ErrorText.unavailable]);
  return errors;
};

/** Every status a route can answer: its success and its errors, ascending. */
export const routeStatuses = (contract: RouteContract): number[] =>
  [contract.success.status, ...routeErrors(contract).keys()].sort((a, b) => a - b);
