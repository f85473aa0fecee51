import { type Scope, scopes } from '@contract/scopes';
import { requiredEnv } from '@lambdas/env';

/**
 * The authorizer's rule for each route: route key (`${method} ${resource}`) → the scope an API token
 * needs, `null` for sessions only. The stack and the local runtime set `ROUTE_SCOPES` from the route
 * contracts (`routeScopesJson`); a value that is not such a table stops the function at load, so no
 * request is ever judged by a rule it misread.
 */
export const parseRouteScopes = (json: string): ReadonlyMap<string, Scope | null> => {
  const table: unknown = JSON.parse(json);
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    throw new Error('ROUTE_SCOPES must be a JSON object of route key to scope');
  }
  const rules = new Map<string, Scope | null>();
  for (const [key, scope] of Object.entries(table)) {
    if (scope !== null && !(scopes as readonly unknown[]).includes(scope)) {
      throw new Error(`ROUTE_SCOPES gives ${key} an unknown scope`);
    }
    rules.set(key, scope as Scope | null);
  }
  return rules;
};

/** The rules this function was deployed with. */
export const routeScopes = parseRouteScopes(requiredEnv('ROUTE_SCOPES'));
