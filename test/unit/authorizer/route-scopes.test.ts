import { routeKey, routeScopesJson } from '@contract/route-table';
import { routes } from '@contract/routes';

process.env.ROUTE_SCOPES = routeScopesJson();
const { parseRouteScopes, routeScopes } =
  require('@lambdas/authorizer/route-scopes') as typeof import('@lambdas/authorizer/route-scopes');

describe('the authorizer’s route rules', () => {
  it('holds every route contract’s scope rule, and nothing else', () => {
    expect([...routeScopes]).toEqual(routes.map((route) => [routeKey(route.method, route.path), route.tokenScope]));
  });

  it.each([
    ['an unknown scope', '{"GET /api/v1/tokens":"root"}', 'unknown scope'],
    ['a list', '[]', 'JSON object'],
    ['no JSON', 'admin', 'JSON'],
    ['a scope that is no string', '{"GET /api/v1/tokens":1}', 'unknown scope'],
  ])('refuses to load with %s', (_label, json, message) => {
    expect(() => parseRouteScopes(json)).toThrow(message);
  });
});
