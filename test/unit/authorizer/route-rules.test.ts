import { routeKey, routeRulesJson } from '@contract/route-table';
import { routes } from '@contract/routes';

process.env.ROUTE_RULES = routeRulesJson();
const { parseRouteRules, routeRules } =
  require('@lambdas/authorizer/route-rules') as typeof import('@lambdas/authorizer/route-rules');

describe('the authorizer’s route rules', () => {
  it('holds every route contract’s scope and service-account rule but the sign-ins’ (no authorizer), and nothing else', () => {
    expect([...routeRules].sort()).toEqual(
      routes
        .filter((route) => !route.signIn)
        .map((route) => [
          routeKey(route.method, route.path),
          { scope: route.tokenScope, serviceAccounts: route.serviceAccounts === true },
        ])
        .sort(),
    );
  });

  it('fits in what Lambda allows all of a function’s variables, with room for the others', () => {
    expect(Buffer.byteLength(routeRulesJson())).toBeLessThan(3 * 1024);
  });

  it.each([
    ['an unknown scope', '{"/tokens":{"GET":"root"}}', 'unknown rule'],
    ['a service-account mark alone', '{"/tokens":{"GET":"m"}}', 'unknown rule'],
    ['a list', '[]', 'JSON object'],
    ['null', 'null', 'JSON object'],
    ['a path whose methods are null', '{"/tokens":null}', 'no methods'],
    ['a path without methods', '{"/tokens":"r"}', 'no methods'],
    ['no JSON', 'admin', 'JSON'],
    ['a rule that is no string', '{"/tokens":{"GET":1}}', 'unknown rule'],
  ])('refuses to load with %s', (_label, json, message) => {
    expect(() => parseRouteRules(json)).toThrow(message);
  });
});
