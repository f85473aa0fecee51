import type { Scope } from '@lambdas/domain/scopes';
import {
  MEMBERS_ADDED_METRIC,
  MEMBERS_REMOVED_METRIC,
  TOKENS_CREATED_METRIC,
  TOKENS_REVOKED_METRIC,
} from './service-metrics';

/** A DynamoDB action one of our functions may perform. Scan is deliberately not one of them. */
export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:ConditionCheckItem'
  | 'dynamodb:Query';

/** What one function may do to the table and to its list index; the stack grants exactly this. */
export interface TableAccess {
  /** Actions on the table itself (a TransactWriteItems call needs the action of each of its parts). */
  readonly table: readonly TableAction[];
  /** Actions on the list index (GSI1). */
  readonly listIndex: readonly TableAction[];
}

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
 * The authorizer's table access: reads by primary key (the token, strongly consistent; the session's
 * profile), and updates of `lastUsedAt` and of the session's profile, each at most once a minute or day.
 */
export const authorizerTableAccess: TableAccess = {
  table: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  listIndex: [],
};

/** Every route of the API. */
export const routes: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/api/v1/tokens',
    handler: 'create-token',
    tokenScope: null,
    hasBody: true,
    summary: 'Create an API token (dashboard session only)',
    // Reads the user's token slots, then puts token + slots in one transaction.
    tableAccess: { table: ['dynamodb:GetItem', 'dynamodb:PutItem'], listIndex: [] },
    successMetric: TOKENS_CREATED_METRIC,
  },
  {
    method: 'GET',
    path: '/api/v1/tokens',
    handler: 'list-tokens',
    tokenScope: 'admin',
    hasBody: false,
    summary: "List the caller's tokens, newest first",
    tableAccess: { table: [], listIndex: ['dynamodb:Query'] },
  },
  {
    method: 'DELETE',
    path: '/api/v1/tokens/{id}',
    handler: 'revoke-token',
    tokenScope: 'admin',
    hasBody: false,
    summary: 'Revoke one of the caller’s tokens',
    // Deletes the token and frees its slot in one transaction.
    tableAccess: { table: ['dynamodb:DeleteItem', 'dynamodb:UpdateItem'], listIndex: [] },
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
    tableAccess: { table: ['dynamodb:PutItem'], listIndex: [] },
  },
  {
    method: 'GET',
    path: '/api/v1/projects',
    handler: 'list-projects',
    tokenScope: 'read:secrets',
    hasBody: false,
    summary: 'List the projects the caller belongs to',
    tableAccess: { table: [], listIndex: ['dynamodb:Query'] },
  },
  {
    method: 'GET',
    path: '/api/v1/projects/{projectId}/members',
    handler: 'list-members',
    tokenScope: 'read:secrets',
    hasBody: false,
    summary: 'List the members of a project',
    // A strongly consistent query of the project's partition (membership decides access).
    tableAccess: { table: ['dynamodb:Query'], listIndex: [] },
  },
  {
    method: 'POST',
    path: '/api/v1/projects/{projectId}/members',
    handler: 'add-member',
    tokenScope: 'admin',
    hasBody: true,
    summary: 'Add a member to a project',
    // Caller's membership and the profile, then a condition check on the caller + put of the member.
    tableAccess: { table: ['dynamodb:GetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:PutItem'], listIndex: [] },
    successMetric: MEMBERS_ADDED_METRIC,
  },
  {
    method: 'DELETE',
    path: '/api/v1/projects/{projectId}/members/{email}',
    handler: 'remove-member',
    tokenScope: 'admin',
    hasBody: false,
    summary: 'Remove a member from a project',
    // Caller's membership, then a condition check on the caller + delete of the member.
    tableAccess: { table: ['dynamodb:GetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem'], listIndex: [] },
    successMetric: MEMBERS_REMOVED_METRIC,
  },
];

/** The key API Gateway's authorizer event carries for a route: `${httpMethod} ${resource}`. */
export const routeKey = (method: string, path: string): string => `${method} ${path}`;

const routesByKey = new Map(routes.map((route) => [routeKey(route.method, route.path), route]));

/** The route for an authorizer or proxy event's method and resource, if it is one of ours. */
export const findRoute = (method: string, resource: string): RouteDefinition | undefined =>
  routesByKey.get(routeKey(method, resource));
