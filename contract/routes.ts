import type { Scope } from './scopes';
import {
  MEMBERS_ADDED_METRIC,
  MEMBERS_REMOVED_METRIC,
  TOKENS_CREATED_METRIC,
  TOKENS_REVOKED_METRIC,
} from './service-metrics';
import { type KeyPrefix, keyPrefix } from './table-schema';

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

/** One API route: the single source of truth for the stack, the local gateway, the authorizer and the tests. */
export interface RouteDefinition {
  /** HTTP method. */
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
  /** Whether the route reads a JSON request body. */
  readonly hasBody: boolean;
  /** One line for people: logs, the README and the API document. */
  readonly summary: string;
  /** Least-privilege table access of the route's function. */
  readonly tableAccess: TableAccess;
  /** Metric counted once per successful request, for routes that change state worth counting. */
  readonly successMetric?: string;
}

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

/** Every route of the API. */
export const routes: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/api/v1/tokens',
    handler: 'create-token',
    tokenScope: null,
    hasBody: true,
    summary: 'Create an API token (dashboard session only)',
    // Reads the user's token slots, then puts the token and updates the slots (puts the first) in one transaction.
    tableAccess: [
      { actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], partitions: [keyPrefix.user] },
      { actions: ['dynamodb:PutItem'], partitions: [keyPrefix.token] },
    ],
    successMetric: TOKENS_CREATED_METRIC,
  },
  {
    method: 'GET',
    path: '/api/v1/tokens',
    handler: 'list-tokens',
    tokenScope: 'admin',
    hasBody: false,
    summary: "List the caller's tokens, newest first",
    tableAccess: [{ actions: ['dynamodb:Query'], partitions: [keyPrefix.user], listIndex: true }],
  },
  {
    method: 'DELETE',
    path: '/api/v1/tokens/{id}',
    handler: 'revoke-token',
    tokenScope: 'admin',
    hasBody: false,
    summary: 'Revoke one of the caller’s tokens',
    // Deletes the token and frees its slot in one transaction.
    tableAccess: [
      { actions: ['dynamodb:DeleteItem'], partitions: [keyPrefix.token] },
      { actions: ['dynamodb:UpdateItem'], partitions: [keyPrefix.user] },
    ],
    successMetric: TOKENS_REVOKED_METRIC,
  },
  {
    method: 'POST',
    path: '/api/v1/projects',
    handler: 'create-project',
    tokenScope: 'admin',
    hasBody: true,
    summary: 'Create a project owned by the caller',
    // Puts project + owner membership in one transaction.
    tableAccess: [{ actions: ['dynamodb:PutItem'], partitions: [keyPrefix.project] }],
  },
  {
    method: 'GET',
    path: '/api/v1/projects',
    handler: 'list-projects',
    tokenScope: 'read:secrets',
    hasBody: false,
    summary: 'List the projects the caller belongs to',
    tableAccess: [{ actions: ['dynamodb:Query'], partitions: [keyPrefix.user], listIndex: true }],
  },
  {
    method: 'GET',
    path: '/api/v1/projects/{projectId}/members',
    handler: 'list-members',
    tokenScope: 'read:secrets',
    hasBody: false,
    summary: 'List the members of a project',
    // A strongly consistent query of the project's partition (membership decides access), then the
    // members' profiles for their addresses.
    tableAccess: [
      { actions: ['dynamodb:Query'], partitions: [keyPrefix.project] },
      { actions: ['dynamodb:BatchGetItem'], partitions: [keyPrefix.user] },
    ],
  },
  {
    method: 'POST',
    path: '/api/v1/projects/{projectId}/members',
    handler: 'add-member',
    tokenScope: 'admin',
    hasBody: true,
    summary: 'Add a member to a project',
    // The caller's membership and the address's claim, then a condition check on the caller + put of the member.
    tableAccess: [
      {
        actions: ['dynamodb:GetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:PutItem'],
        partitions: [keyPrefix.project],
      },
      { actions: ['dynamodb:GetItem'], partitions: [keyPrefix.email] },
    ],
    successMetric: MEMBERS_ADDED_METRIC,
  },
  {
    method: 'DELETE',
    path: '/api/v1/projects/{projectId}/members/{email}',
    handler: 'remove-member',
    tokenScope: 'admin',
    hasBody: false,
    summary: 'Remove a member from a project',
    // The address's claim, then a condition check on the caller + delete of the member (reads explain a refusal).
    tableAccess: [
      {
        actions: ['dynamodb:GetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem'],
        partitions: [keyPrefix.project],
      },
      { actions: ['dynamodb:GetItem'], partitions: [keyPrefix.email] },
    ],
    successMetric: MEMBERS_REMOVED_METRIC,
  },
];

/** The key API Gateway's authorizer event carries for a route: `${httpMethod} ${resource}`. */
export const routeKey = (method: string, path: string): string => `${method} ${path}`;

const routesByKey = new Map(routes.map((route) => [routeKey(route.method, route.path), route]));

/** The route for an authorizer or proxy event's method and resource, if it is one of ours. */
export const findRoute = (method: string, resource: string): RouteDefinition | undefined =>
  routesByKey.get(routeKey(method, resource));
