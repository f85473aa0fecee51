/*
 * How `ROUTE_RULES` writes the authorizer's rule for each route (route-table.ts `routeRulesJson` writes
 * it from the contracts; lambdas/authorizer/route-rules.ts reads it): here apart, so that the authorizer
 * imports these few constants and not the route list.
 */

/** The path prefix every route shares, left out of `ROUTE_RULES` to keep it within Lambda's 4 KB of variables. */
export const ROUTE_RULES_PREFIX = '/api/v1';

/** How `ROUTE_RULES` writes a route's scope: one letter, `s` for sessions only. */
export const SCOPE_CODES = { 'read:secrets': 'r', 'write:secrets': 'w', admin: 'a' } as const;

/** How `ROUTE_RULES` marks a route a service account may call, after its scope's letter. */
export const SERVICE_ACCOUNT_CODE = 'm';
