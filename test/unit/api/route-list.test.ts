import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { routes } from '@contract/routes';

const modules = (folder: string): string[] =>
  readdirSync(path.join(__dirname, '../../..', folder))
    .map((file) => path.parse(file).name)
    .sort();

describe('the route list', () => {
  it('is every contract module, each beside a function module of the same name', () => {
    const handlers = routes.map((route) => route.handler).sort();
    expect(handlers.length).toBeGreaterThan(0);
    expect(handlers).toEqual(modules('contract/routes'));
    expect(handlers).toEqual(modules('lambdas/routes'));
  });

  it('holds each method and path once, by path and then GET, POST, DELETE', () => {
    const keys = routes.map((route) => `${route.path} ${route.method}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(routes.map((route) => route.path)).toEqual(routes.map((route) => route.path).sort());
    const tokens = routes.filter((route) => route.path === '/api/v1/tokens').map((route) => route.method);
    expect(tokens).toEqual(['GET', 'POST']);
  });
});
