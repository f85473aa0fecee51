import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { pathParameters, templateFor } from '@contract/route-table';
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

describe('templateFor', () => {
  const templates = [
    '/api/v1/projects/{projectId}/members/{email}',
    '/api/v1/projects/{projectId}/members/{email}/access',
    '/api/v1/projects/{projectId}/members/me',
    '/api/v1/projects/{projectId}/members/me/seen',
  ];

  it('serves a path from the template with a static segment where another has a parameter, as API Gateway does', () => {
    // In either order of the templates.
    for (const list of [templates, [...templates].reverse()]) {
      expect(templateFor(list, '/api/v1/projects/prj_1/members/me')).toBe('/api/v1/projects/{projectId}/members/me');
      expect(templateFor(list, '/api/v1/projects/prj_1/members/me/seen')).toBe(
        '/api/v1/projects/{projectId}/members/me/seen',
      );
      expect(templateFor(list, '/api/v1/projects/prj_1/members/ada%40example.com')).toBe(
        '/api/v1/projects/{projectId}/members/{email}',
      );
      expect(templateFor(list, '/api/v1/projects/prj_1/members/me/access')).toBe(
        '/api/v1/projects/{projectId}/members/{email}/access',
      );
    }
  });

  it('serves no path that no template fits, nor an empty parameter', () => {
    expect(templateFor(templates, '/api/v1/projects/prj_1/members')).toBeUndefined();
    expect(templateFor(templates, '/api/v1/projects//members/me')).toBeUndefined();
    expect(templateFor(templates, '/api/v1/projects/prj_1/members/me/other')).toBeUndefined();
  });

  it('finds the route of every route’s own path, and its parameters as sent', () => {
    for (const route of routes) {
      const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => `${name}-value`);
      expect(
        templateFor(
          routes.map((other) => other.path),
          path,
        ),
      ).toBe(route.path);
    }
    expect(pathParameters('/api/v1/tokens/{id}', '/api/v1/tokens/a%2Fb')).toEqual({ id: 'a%2Fb' });
  });
});
