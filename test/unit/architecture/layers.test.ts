import { type ImportEdge, importGraph, resolveSpecifier, violations } from './import-rules';

const edge = (from: string, specifier: string): ImportEdge => ({
  from,
  specifier,
  to: resolveSpecifier(from, specifier),
});

describe('dependencies point one way', () => {
  const graph = importGraph(['cli', 'client', 'contract', 'lib', 'lambdas', 'dashboard', 'smoke']);

  it('reads the imports of every layer', () => {
    const layers = new Set(graph.map((e) => e.from.split('/')[0]));
    expect([...layers].sort()).toEqual(['cli', 'client', 'contract', 'dashboard', 'lambdas', 'lib', 'smoke']);
    expect(graph.some((e) => e.from.startsWith('cli/') && e.to?.startsWith('contract/'))).toBe(true);
    expect(graph.some((e) => e.from.startsWith('smoke/') && e.to?.startsWith('contract/'))).toBe(true);
    expect(graph.some((e) => e.from.startsWith('lambdas/') && e.to?.startsWith('contract/'))).toBe(true);
    expect(graph.some((e) => e.from.startsWith('lib/') && e.to?.startsWith('contract/'))).toBe(true);
    // The stack builds the dashboard with its build script, and the screens are read too (.tsx).
    expect(graph.some((e) => e.from.startsWith('lib/') && e.to === 'dashboard/build')).toBe(true);
    expect(graph.some((e) => e.from.startsWith('dashboard/src/') && e.from.endsWith('.tsx'))).toBe(true);
  });

  it('has no import that crosses a layer the wrong way', () => {
    expect(violations(graph)).toEqual([]);
  });

  it.each([
    ['the app importing function code', edge('lib/constructs/x.ts', '@lambdas/domain/errors')],
    ['function code importing the app', edge('lambdas/http/x.ts', '../../lib/config')],
    ['the contract importing function code', edge('contract/routes.ts', '@lambdas/domain/scopes')],
    ['the contract importing the app', edge('contract/routes.ts', '../lib/config')],
    ['a function importing the route list', edge('lambdas/http/x.ts', '@contract/routes')],
    ['a screen importing the route list', edge('dashboard/src/x.tsx', '../../contract/routes')],
    ['the domain importing an API Gateway type', edge('lambdas/domain/x.ts', 'aws-lambda')],
    ['the domain importing the SDK', edge('lambdas/domain/x.ts', '@aws-sdk/client-dynamodb')],
    ['the domain importing the HTTP edge', edge('lambdas/domain/x.ts', '../http/responses')],
    ['the HTTP edge importing the data client', edge('lambdas/http/errors.ts', '@lambdas/data/client')],
    ['the data layer importing a use case', edge('lambdas/data/x.ts', '../use-cases/tokens')],
    ['a use case importing a repository', edge('lambdas/use-cases/x.ts', '@lambdas/data/token-repository')],
    ['the data layer importing the composition root', edge('lambdas/data/x.ts', '../composition/projects')],
    ['the domain importing the composition root', edge('lambdas/domain/x.ts', '@lambdas/composition/tokens')],
    ['a dashboard screen importing the app', edge('dashboard/src/x.tsx', '@lib/config')],
    ['a dashboard screen importing function code', edge('dashboard/src/x.tsx', '@lambdas/domain/roles')],
    ['a dashboard screen importing the local runtime', edge('dashboard/src/screens/x.tsx', '../../../local/dev-idp')],
    ['a dashboard screen importing the build', edge('dashboard/src/x.tsx', '../build')],
    ['a dashboard screen importing the tests', edge('dashboard/src/x.tsx', '@test/infra/synth')],
    ['the dashboard build importing the app', edge('dashboard/build.ts', '../lib/bundling')],
    ['the app importing a dashboard screen', edge('lib/constructs/x.ts', '../../dashboard/src/main')],
    ['the contract importing the dashboard', edge('contract/dashboard.ts', '../dashboard/build')],
    ['function code importing the dashboard', edge('lambdas/http/x.ts', '../../dashboard/build')],
    ['the smoke test importing function code', edge('smoke/x.ts', '@lambdas/domain/token-format')],
    ['the smoke test importing the local runtime', edge('smoke/x.ts', '../local/gateway')],
    ['the command line importing function code', edge('cli/x.ts', '../lambdas/domain/token-format')],
    ['the command line importing the local runtime', edge('cli/x.ts', '../local/service')],
    ['the command line importing the app', edge('cli/x.ts', '../lib/bundling')],
    ['encryption importing the data client', edge('lambdas/crypto/x.ts', '@lambdas/data/client')],
    ['encryption importing the HTTP edge', edge('lambdas/crypto/x.ts', '../http/errors')],
    ['encryption importing a route', edge('lambdas/crypto/x.ts', '@lambdas/routes/get-me')],
    ['a use case importing the KMS key wrapper', edge('lambdas/use-cases/x.ts', '@lambdas/crypto/kms-key-wrapper')],
    ['a use case importing the choice of key wrapper', edge('lambdas/use-cases/x.ts', '../crypto/key-wrapper')],
    ['the typed client importing the contract', edge('client/x.ts', '@contract/route')],
    ['the typed client importing the app', edge('client/x.ts', '../lib/api-document')],
    ['the contract importing the typed client', edge('contract/x.ts', '../client/index')],
    ['function code importing the typed client', edge('lambdas/http/x.ts', '@client/index')],
  ])('reports %s', (_label, wrong) => {
    expect(violations([...graph, wrong])).toEqual([
      expect.stringContaining(`${wrong.from} imports ${wrong.specifier}`),
    ]);
  });

  it.each([
    ['a dashboard screen importing the contract', edge('dashboard/src/x.tsx', '@contract/dashboard')],
    ['a dashboard screen importing the typed client', edge('dashboard/src/x.ts', '@client/index')],
    ['the typed client importing its generated types', edge('client/create-client.ts', './api-types')],
    ['the typed client importing a package', edge('client/create-client.ts', 'openapi-fetch')],
    ['a dashboard screen importing another screen', edge('dashboard/src/screens/x.tsx', '../api-client')],
    ['a dashboard screen importing a package', edge('dashboard/src/x.tsx', 'oidc-client-ts')],
    ['the app importing the dashboard build', edge('lib/constructs/x.ts', '../../dashboard/build')],
    ['the command line importing the API client', edge('cli/x.ts', '../client/index')],
    ['the command line importing the contract', edge('cli/x.ts', '../contract/errors')],
    ['a route importing the composition root', edge('lambdas/routes/x.ts', '@lambdas/composition/tokens')],
    ['a use case importing the envelope', edge('lambdas/use-cases/x.ts', '@lambdas/crypto/envelope')],
    ['encryption importing the domain errors', edge('lambdas/crypto/x.ts', '@lambdas/domain/errors')],
  ])('allows %s', (_label, right) => {
    expect(violations([right])).toEqual([]);
  });
});
