import { ErrorText } from './errors';
import { ROUTE_RULES_PREFIX, SCOPE_CODES, SERVICE_ACCOUNT_CODE } from './route-rules';
import { type RouteContract, routes } from './routes';
import type { ErrorTextValue } from './schemas';

/**
 * What the stack, the local gateway, the API document and the tests derive from the route contracts
 * as a whole; the functions read only their own contract (contract/routes.ts).
 */

type NonEmpty<T> = readonly [T, ...T[]];

/** The key API Gateway's authorizer event carries for a route: `${httpMethod} ${resource}`. */
export const routeKey = (method: string, path: string): string => `${method} ${path}`;

/**
 * The authorizer's rules, as the JSON of its `ROUTE_RULES` variable: path (less `ROUTE_RULES_PREFIX`) →
 * method → the scope an API token needs (`SCOPE_CODES`, `s`: sessions only), followed by
 * `SERVICE_ACCOUNT_CODE` where a service account may call it. The authorizer is handed its rules rather
 * than importing the contracts, whose schemas it never uses and would load on every cold start; the
 * codes keep the table within what Lambda allows a function's variables (4 KB in all).
 */
export const routeRulesJson = (): string => {
  const table: Record<string, Record<string, string>> = {};
  // A sign-in has no authorizer: the authorizer never judges it.
  for (const contract of routes.filter((route) => !route.signIn)) {
    if (!contract.path.startsWith(`${ROUTE_RULES_PREFIX}/`)) throw new Error(`${contract.path} is outside the API`);
    const path = contract.path.slice(ROUTE_RULES_PREFIX.length);
    const scope = contract.tokenScope === null ? 's' : SCOPE_CODES[contract.tokenScope];
    table[path] ??= {};
    table[path][contract.method] = `${scope}${contract.serviceAccounts ? SERVICE_ACCOUNT_CODE : ''}`;
  }
  return JSON.stringify(table);
};

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
  else if (contract.schemas().query) errors.set(400, [ErrorText.validation]);
  if (contract.signIn) {
    // No credential, no authorizer: one refusal for every reason, and only the firewall's 403.
    errors.set(401, [ErrorText.identityNotAccepted]);
    errors.set(403, [ErrorText.firewallBlocked]);
  } else {
    errors.set(401, [ErrorText.unauthorized, ErrorText.expired]);
    // The authorizer's order: source IP before the route's scope rule, then a limited token's projects
    // (docs/api.md); the firewall's own.
    errors.set(403, [
      ErrorText.wrongIp,
      ...(contract.tokenScope === null ? [ErrorText.sessionRequired] : [ErrorText.scope, ErrorText.tokenResource]),
      ...(contract.serviceAccounts ? [] : [ErrorText.serviceAccountForbidden]),
      ...(contract.errors.forbidden ?? []),
      ErrorText.firewallBlocked,
    ]);
  }
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

/** Every status a route can answer: its success (and 304, for a conditional route) and its errors, ascending. */
export const routeStatuses = (contract: RouteContract): number[] =>
  [
    contract.success.status,
    ...(contract.success.created === undefined ? [] : [201]),
    ...(contract.conditional ? [304] : []),
    ...routeErrors(contract).keys(),
  ].sort((a, b) => a - b);

/** Every path of the route table with the methods it serves: where a preflight is answered. */
export const methodsByPath: ReadonlyMap<string, readonly string[]> = routes.reduce((paths, contract) => {
  paths.set(contract.path, [...(paths.get(contract.path) ?? []), contract.method]);
  return paths;
}, new Map<string, string[]>());

const isParameter = (segment: string): boolean => segment.startsWith('{') && segment.endsWith('}');

/** The path parameters of `path` (raw, as sent) under a path template, or undefined when it does not fit. */
export const pathParameters = (template: string, path: string): Record<string, string> | undefined => {
  const segments = path.split('/');
  const parts = template.split('/');
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  const fits = parts.every((part, index) => {
    const actual = segments[index] ?? '';
    if (!isParameter(part)) return part === actual;
    params[part.slice(1, -1)] = actual;
    return actual.length > 0;
  });
  return fits ? params : undefined;
};

/** Whether template `a` is chosen over `b` for a path both fit: a static segment where `b` has a parameter, first from the left. */
const moreSpecific = (a: string, b: string): boolean => {
  const bParts = b.split('/');
  for (const [index, part] of a.split('/').entries()) {
    const other = bParts[index] ?? '';
    if (isParameter(part) !== isParameter(other)) return isParameter(other);
  }
  return false;
};

/**
 * Of `templates`, the one a request's `path` is served by, as API Gateway picks a resource: among
 * those that fit, a static segment wins over a parameter beside it (`/members/me` over
 * `/members/{email}`). The local gateway routes by it, and the tests find a reply's route by it.
 */
export const templateFor = (templates: Iterable<string>, path: string): string | undefined => {
  let chosen: string | undefined;
  for (const template of templates) {
    if (pathParameters(template, path) && (chosen === undefined || moreSpecific(template, chosen))) chosen = template;
  }
  return chosen;
};
