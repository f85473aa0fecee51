import type { Scope } from '@lambdas/domain/scopes';

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
}

/** Every route of the API. */
export const routes: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/api/v1/tokens',
    handler: 'create-token',
    tokenScope: null,
    hasBody: true,
    summary: 'Create an API token (dashboard session only)',
  },
  {
    method: 'GET',
    path: '/api/v1/tokens',
    handler: 'list-tokens',
    tokenScope: 'admin',
    hasBody: false,
    summary: "List the caller's tokens, newest first",
  },
  {
    method: 'DELETE',
    path: '/api/v1/tokens/{id}',
    handler: 'revoke-token',
    tokenScope: 'admin',
    hasBody: false,
    summary: 'Revoke one of the caller’s tokens',
  },
  {
    method: 'POST',
    path: '/api/v1/projects',
    handler: 'create-project',
    tokenScope: 'admin',
    hasBody: true,
    summary: 'Create a project owned by the caller',
  },
  {
    method: 'GET',
    path: '/api/v1/projects',
    handler: 'list-projects',
    tokenScope: 'read:secrets',
    hasBody: false,
    summary: 'List the projects the caller belongs to',
  },
  {
    method: 'GET',
    path: '/api/v1/projects/{projectId}/members',
    handler: 'list-members',
    tokenScope: 'read:secrets',
    hasBody: false,
    summary: 'List the members of a project',
  },
  {
    method: 'POST',
    path: '/api/v1/projects/{projectId}/members',
    handler: 'add-member',
    tokenScope: 'admin',
    hasBody: true,
    summary: 'Add a member to a project',
  },
  {
    method: 'DELETE',
    path: '/api/v1/projects/{projectId}/members/{email}',
    handler: 'remove-member',
    tokenScope: 'admin',
    hasBody: false,
    summary: 'Remove a member from a project',
  },
];

/** The key API Gateway's authorizer event carries for a route: `${httpMethod} ${resource}`. */
export const routeKey = (method: string, path: string): string => `${method} ${path}`;

const routesByKey = new Map(routes.map((route) => [routeKey(route.method, route.path), route]));

/** The route for an authorizer or proxy event's method and resource, if it is one of ours. */
export const findRoute = (method: string, resource: string): RouteDefinition | undefined =>
  routesByKey.get(routeKey(method, resource));
