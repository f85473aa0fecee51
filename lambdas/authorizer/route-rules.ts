import { ROUTE_RULES_PREFIX, SCOPE_CODES, SERVICE_ACCOUNT_CODE } from '@contract/route-rules';
import type { Scope } from '@contract/scopes';
import { requiredEnv } from '@lambdas/env';

/** The authorizer's rule for one route. */
export interface RouteRule {
  /** The scope an API token needs; `null`: sessions only. */
  readonly scope: Scope | null;
  /** Whether a service account's credential may call it. */
  readonly serviceAccounts: boolean;
}

const SCOPES_BY_CODE = new Map<string, Scope | null>([
  ...Object.entries(SCOPE_CODES).map(([scope, code]): [string, Scope] => [code, scope as Scope]),
  ['s', null],
]);

/**
 * The authorizer's rule for each route, by route key (`${method} ${resource}`). The stack and the local
 * runtime set `ROUTE_RULES` from the route contracts (`routeRulesJson`); a value that is not such a
 * table stops the function at load, so no request is ever judged by a rule it misread.
 */
export const parseRouteRules = (json: string): ReadonlyMap<string, RouteRule> => {
  const table: unknown = JSON.parse(json);
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(table)) throw new Error('ROUTE_RULES must be a JSON object of path to method to rule');
  const rules = new Map<string, RouteRule>();
  for (const [path, methods] of Object.entries(table)) {
    if (!isObject(methods)) throw new Error(`ROUTE_RULES gives ${path} no methods`);
    for (const [method, code] of Object.entries(methods)) {
      const text = typeof code === 'string' ? code : '';
      const serviceAccounts = text.endsWith(SERVICE_ACCOUNT_CODE);
      const scope = SCOPES_BY_CODE.get(serviceAccounts ? text.slice(0, -SERVICE_ACCOUNT_CODE.length) : text);
      if (scope === undefined) throw new Error(`ROUTE_RULES gives ${method} ${path} an unknown rule`);
      rules.set(`${method} ${ROUTE_RULES_PREFIX}${path}`, { scope, serviceAccounts });
    }
  }
  return rules;
};

/** The rules this function was deployed with. */
export const routeRules = parseRouteRules(requiredEnv('ROUTE_RULES'));
