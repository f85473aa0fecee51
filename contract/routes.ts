import * as z from 'zod/mini';
import { DEFAULT_AUDIT_PAGE, MAX_AUDIT_EVENT_BYTES } from './audit';
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
  trailPage,
  trailQuery,
} from './schemas';
import type { Scope } from './scopes';
import { scopes } from './scopes';
import {
  MEMBERS_ADDED_METRIC,
  MEMBERS_REMOVED_METRIC,
  TOKENS_CREATED_METRIC,
  TOKENS_REVOKED_METRIC,
} from './service-metrics';
import type { DataCall } from './work';

/** HTTP methods the API serves. */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

type NonEmpty<T> = readonly [T, ...T[]];

/** The schemas of a route: path parameters, query string, JSON body (body routes only), success answer. */
export interface RouteSchemas {
  readonly params?: z.ZodMiniObject;
  readonly query?: z.ZodMiniObject;
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
  /** Metric counted once per successful request, for routes that change state worth counting. */
  readonly successMetric?: string;
  /**
   * The DynamoDB calls the route makes, by its access pattern (docs/data-model.md): those not marked
   * `beyondFloor` are the least a successful request needs, which `npm run bench` and the integration
   * suite hold it to; all of them are what the stack grants its function (`grantsOf`). Why each is
   * needed is a comment.
   */
  readonly dataAccess: readonly DataCall[];
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
        readonly query: S['query'] extends z.ZodMiniType ? z.output<S['query']> : Record<string, never>;
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

export const createTokenRoute = route({
  method: 'POST',
  path: '/api/v1/tokens',
  handler: 'create-token',
  tokenScope: null,
  summary: 'Create an API token (dashboard session only)',
  success: { status: 201, description: 'The new token; `rawToken` appears in this response only' },
  errors: { conflict: [ErrorText.tokenLimit] },
  successMetric: TOKENS_CREATED_METRIC,
  // Least work (create a token under the limit): The slots say which tokens are still live (expired
  // ones free their slot), so they must be read; the version check makes a stale read safe, but it
  // would cancel a 6-unit transaction and retry, so the read is strong (0.5 units more on a rare
  // route). Token and slots in one transaction; the slots are updated (put for a user’s first
  // token).
  dataAccess: [
    { operation: 'GetItem', entity: 'TokenSlots', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
    },
    // A user's first token puts the slot item instead of updating it.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Token' },
        { action: 'Put', entity: 'TokenSlots' },
        { action: 'Put', entity: 'AuditEvent' },
      ],
      beyondFloor: true,
    },
  ],
  schemas: () => ({
    body: z.strictObject({
      name: name(),
      scopes: z.array(z.enum(scopes)).check(
        z.minLength(1),
        z.refine((list) => new Set(list).size === list.length, 'Scopes must be unique'),
      ),
      ttlDays: z.optional(
        z
          .nullable(z.int().check(z.gte(1), z.lte(MAX_TTL_DAYS)))
          .check(z.describe(`Days until expiry; \`null\`: never; omitted: ${DEFAULT_TTL_DAYS}`)),
      ),
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
  // Least work (list a user’s tokens): One page of the user’s partition of the list index (an index
  // read is eventually consistent).
  dataAccess: [{ operation: 'Query', entity: 'Token', consistent: false, index: 'GSI1' }],
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
  successMetric: TOKENS_REVOKED_METRIC,
  // Least work (revoke a token): The owner check is the Delete’s condition, so no read; the slot is
  // freed in the same transaction.
  dataAccess: [
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Token' },
        { action: 'Update', entity: 'TokenSlots' },
        { action: 'Put', entity: 'AuditEvent' },
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
  // Least work (create a project): Project and owner membership together, so no project is ever
  // without its owner.
  dataAccess: [
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Put', entity: 'Project' },
        { action: 'Put', entity: 'Member' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
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
  // Least work (list a user’s projects): One page of the user’s partition of the list index; each
  // membership carries the project’s name.
  dataAccess: [{ operation: 'Query', entity: 'Member', consistent: false, index: 'GSI1' }],
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
  // Least work (list members (decides access)): The project’s partition, strongly consistent because
  // the caller’s own membership in it decides access; then each member’s profile, whose address
  // follows their latest session (eventual: display only). The sample world’s project has two
  // members.
  dataAccess: [
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
  successMetric: MEMBERS_ADDED_METRIC,
  // Least work (add a member): The caller’s membership (role, and the project name the new
  // membership carries) and the address’s claim, which names the user (strong: a user who has just
  // signed in must be found), then the role re-checked and the member put if absent, atomically.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Put', entity: 'Member' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
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
  successMetric: MEMBERS_REMOVED_METRIC,
  // Least work (remove a member): The address’s claim names the member (strong: the member is keyed
  // by user id); then the caller’s role checked and the member deleted unless owner, atomically. The
  // caller’s and the member’s items are read only to explain a refusal (404, 403 or 409).
  dataAccess: [
    { operation: 'GetItem', entity: 'EmailClaim', consistent: true },
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'ConditionCheck', entity: 'Member' },
        { action: 'Delete', entity: 'Member' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
    },
    // An admin leaving: their own membership deleted if they are an admin, with its event.
    {
      operation: 'TransactWriteItems',
      actions: [
        { action: 'Delete', entity: 'Member' },
        { action: 'Put', entity: 'ProjectAuditEvent' },
      ],
      beyondFloor: true,
    },
    // A refusal is explained by the caller's and the member's memberships.
    { operation: 'GetItem', entity: 'Member', consistent: true, beyondFloor: true },
  ],
  schemas: () => ({
    params: z.object({
      projectId: projectId(),
      email: email(),
    }),
    response: messageBody('Member removed successfully'),
  }),
  sample: (world) => ({
    params: { projectId: world.projectId, email: encodeURIComponent(world.memberEmail) },
  }),
});

export const listAuditEventsRoute = route({
  method: 'GET',
  path: '/api/v1/audit-events',
  handler: 'list-audit-events',
  tokenScope: 'admin',
  summary: "Read the caller's audit trail: what they did and what happened to their tokens",
  success: { status: 200, description: 'One page of the trail, newest first' },
  errors: {},
  // Least work (read a user’s trail): One page of the user’s own trail partition, strongly
  // consistent so that what they just did is in it.
  dataAccess: [
    {
      operation: 'Query',
      entity: 'AuditEvent',
      consistent: true,
      pageBytes: DEFAULT_AUDIT_PAGE * MAX_AUDIT_EVENT_BYTES,
    },
  ],
  schemas: () => ({ query: trailQuery(), response: trailPage() }),
  sample: () => ({}),
});

export const listProjectAuditEventsRoute = route({
  method: 'GET',
  path: '/api/v1/projects/{projectId}/audit-events',
  handler: 'list-project-audit-events',
  tokenScope: 'admin',
  summary: "Read a project's audit trail (owner and admin)",
  success: { status: 200, description: 'One page of the trail, newest first' },
  errors: { forbidden: [ErrorText.projectRole], notFound: [ErrorText.projectNotFound] },
  paramErrors: { projectId: ErrorText.projectNotFound },
  // Least work (read a project’s trail): The caller’s membership (strong: it decides access), then
  // one page of the project’s partition of the list index.
  dataAccess: [
    { operation: 'GetItem', entity: 'Member', consistent: true },
    {
      operation: 'Query',
      entity: 'ProjectAuditEvent',
      consistent: false,
      index: 'GSI1',
      pageBytes: DEFAULT_AUDIT_PAGE * MAX_AUDIT_EVENT_BYTES,
    },
  ],
  schemas: () => ({ params: z.object({ projectId: projectId() }), query: trailQuery(), response: trailPage() }),
  sample: (world) => ({ params: { projectId: world.projectId } }),
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
  listAuditEventsRoute,
  listProjectAuditEventsRoute,
];
