import { type ImportEdge, importGraph, resolveSpecifier, violations } from './import-rules';

const edge = (from: string, specifier: string): ImportEdge => ({
  from,
  specifier,
  to: resolveSpecifier(from, specifier),
});

describe('dependencies point one way', () => {
  const graph = importGraph(['contract', 'lib', 'lambdas']);

  it('reads the imports of every layer', () => {
    const layers = new Set(graph.map((e) => e.from.split('/')[0]));
    expect([...layers].sort()).toEqual(['contract', 'lambdas', 'lib']);
    expect(graph.some((e) => e.from.startsWith('lambdas/') && e.to?.startsWith('contract/'))).toBe(true);
    expect(graph.some((e) => e.from.startsWith('lib/') && e.to?.startsWith('contract/'))).toBe(true);
  });

  it('has no import that crosses a layer the wrong way', () => {
    expect(violations(graph)).toEqual([]);
  });

  it.each([
    ['the app importing function code', edge('lib/constructs/x.ts', '@lambdas/domain/errors')],
    ['function code importing the app', edge('lambdas/http/x.ts', '../../lib/config')],
    ['the contract importing function code', edge('contract/routes.ts', '@lambdas/domain/scopes')],
    ['the contract importing the app', edge('contract/routes.ts', '../lib/config')],
    ['the domain importing an API Gateway type', edge('lambdas/domain/x.ts', 'aws-lambda')],
    ['the domain importing the SDK', edge('lambdas/domain/x.ts', '@aws-sdk/client-dynamodb')],
    ['the domain importing the HTTP edge', edge('lambdas/domain/x.ts', '../http/responses')],
    ['the HTTP edge importing the data client', edge('lambdas/http/errors.ts', '@lambdas/data/client')],
    ['the data layer importing a use case', edge('lambdas/data/x.ts', '../use-cases/tokens')],
  ])('reports %s', (_label, wrong) => {
    expect(violations([...graph, wrong])).toEqual([
      expect.stringContaining(`${wrong.from} imports ${wrong.specifier}`),
    ]);
  });
});
