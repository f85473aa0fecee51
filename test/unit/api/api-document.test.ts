import { execFileSync } from 'node:child_process';
import { ErrorText } from '@contract/errors';
import { API_TAGS } from '@contract/route';
import { hasBody, routeStatuses } from '@contract/route-table';
import { routes } from '@contract/routes';
import { mintToken } from '@lambdas/domain/token-format';
import { API_DOCUMENT_PATH, apiDocument, apiDocumentBody } from '@lib/api-document';
import { PROJECT_ROOT } from '@lib/bundling';

// biome-ignore lint/suspicious/noExplicitAny: tests walk the generated JSON document and template
type Json = Record<string, any>;

const document = apiDocument() as Json;
const operationOf = (method: string, path: string): Json => document.paths[path][method.toLowerCase()];
/** A response as the document gives it, or the component it refers to (each error answer is one). */
const resolved = (response: Json): Json =>
  response.$ref === undefined ? response : document.components.responses[response.$ref.split('/').pop()];
/** An operation's responses by status, each resolved. */
const responsesOf = (operation: Json): Json =>
  Object.fromEntries(
    Object.entries(operation.responses as Json).map(([status, response]) => [status, resolved(response)]),
  );
const errorTexts = (response: Json): string[] => {
  const error = response.content['application/json'].schema.properties.error;
  return error.enum ?? [error.const];
};

/** The texts a route's contract says its own work answers, by status. */
const domainErrors = (
  route: (typeof routes)[number],
): { 403?: readonly string[]; 404?: readonly string[]; 409?: readonly string[] } => ({
  ...(route.errors.forbidden && { 403: route.errors.forbidden }),
  ...(route.errors.notFound && { 404: route.errors.notFound }),
  ...(route.errors.conflict && { 409: route.errors.conflict }),
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator', () => {
    // The validator is ESM only (and reads its schemas via import.meta.url): run it in plain Node, the
    // document on its standard input (it outgrew what one argument may hold).
    const script = `
      import { readFileSync } from 'node:fs';
      import { Validator } from '@seriousme/openapi-schema-validator';
      const validator = new Validator();
      const result = await validator.validate(JSON.parse(readFileSync(0, 'utf8')));
      console.log(JSON.stringify({ valid: result.valid, errors: result.errors, version: validator.version }));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: PROJECT_ROOT,
      input: JSON.stringify(document),
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({ valid: true, version: '3.1' });
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'documents %s with every status it can return',
    (_key, route) => {
      const operation = operationOf(route.method, route.path);
      expect(operation).toBeDefined();
      expect(operation.summary).toBe(route.summary);
      const extra = domainErrors(route);
      const success = route.success.status;
      const withQuery = route.schemas().query !== undefined;
      const expected = [
        success,
        ...(route.success.created === undefined ? [] : [201]),
        ...(route.conditional ? [304] : []),
        401,
        403,
        429,
        500,
        503,
        ...(hasBody(route) ? [400, 413, 415] : withQuery ? [400] : []),
      ];
      if (extra[404]) expected.push(404);
      if (extra[409]) expected.push(409);
      expected.sort((a, b) => a - b);
      expect(Object.keys(operation.responses).map(Number)).toEqual(expected);
      expect(routeStatuses(route)).toEqual(expected);

      const responses = responsesOf(operation);
      if (route.signIn) {
        // No credential, no authorizer: one 401 for every refusal, and only the firewall's 403.
        expect(errorTexts(responses[401])).toEqual([ErrorText.identityNotAccepted]);
        expect(errorTexts(responses[403])).toEqual([ErrorText.firewallBlocked]);
      } else {
        expect(errorTexts(responses[401])).toEqual([ErrorText.unauthorized, ErrorText.expired]);
        expect(errorTexts(responses[403])).toEqual([
          ErrorText.wrongIp,
          ...(route.tokenScope === null ? [ErrorText.sessionRequired] : [ErrorText.scope, ErrorText.tokenResource]),
          ...(route.serviceAccounts ? [] : [ErrorText.serviceAccountForbidden]),
          ...(extra[403] ?? []),
          ErrorText.firewallBlocked,
        ]);
      }
      if (extra[404]) expect(errorTexts(responses[404])).toEqual(extra[404]);
      if (extra[409]) expect(errorTexts(responses[409])).toEqual(extra[409]);
      expect(errorTexts(responses[429])).toEqual([ErrorText.tooManyRequests]);
      expect(errorTexts(responses[500])).toEqual([ErrorText.internal]);
      expect(errorTexts(responses[503])).toEqual([ErrorText.unavailable]);
      expect(responses[503].headers['Retry-After'].required).toBe(true);
      if (withQuery && !hasBody(route)) expect(errorTexts(responses[400])).toEqual([ErrorText.validation]);
      if (hasBody(route)) {
        expect(errorTexts(responses[400])).toEqual([ErrorText.malformedJson, ErrorText.validation]);
        expect(responses[400].content['application/json'].schema.properties.details).toBeDefined();
        expect(errorTexts(responses[413])).toEqual([ErrorText.tooLarge]);
        expect(errorTexts(responses[415])).toEqual([ErrorText.contentType]);
        // An object of known fields only; a union of such objects (a trust rule's kinds) in each of them.
        const body = operation.requestBody.content['application/json'].schema;
        for (const variant of body.oneOf ?? [body]) expect(variant.additionalProperties).toBe(false);
      } else {
        expect(operation.requestBody).toBeUndefined();
      }
      const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ['path', match[1]]);
      const query = Object.keys(route.schemas().query?.shape ?? {}).map((name) => ['query', name]);
      expect((operation.parameters ?? []).map((parameter: Json) => [parameter.in, parameter.name])).toEqual([
        ...parameters,
        ...query,
        ...(route.conditional ? [['header', 'If-None-Match']] : []),
      ]);
    },
  );

  it('documents the ETag and the 304 of a conditional route, and of no other', () => {
    for (const route of routes) {
      const { responses } = operationOf(route.method, route.path);
      const success = responses[route.success.status];
      if (!route.conditional) {
        expect(responses[304]).toBeUndefined();
        expect(success.headers.ETag).toBeUndefined();
        continue;
      }
      expect(success.headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
      expect(responses[304].headers).toEqual({
        'Cache-Control': { $ref: '#/components/headers/CacheControl' },
        ETag: { $ref: '#/components/headers/ETag' },
      });
      expect(responses[304].content).toBeUndefined();
    }
    expect(document.components.headers.ETag.required).toBe(true);
    expect(routes.filter((route) => route.conditional).map((route) => route.handler)).toEqual([
      'export-secrets',
      'list-secrets',
    ]);
  });

  it("documents the trails' paging and filters, and the event schema once", () => {
    for (const path of ['/api/v1/audit-events', '/api/v1/projects/{projectId}/audit-events']) {
      const names = operationOf('GET', path)
        .parameters.filter((p: Json) => p.in === 'query')
        .map((p: Json) => p.name);
      expect(names).toEqual(['limit', 'cursor', 'type', 'since', 'until']);
    }
    expect(Object.keys(document.components?.schemas ?? {})).toContain('AuditEvent');
  });

  it('gives the member routes the errors docs/api.md names, written out here independently', () => {
    const texts = (method: string, path: string, status: number) =>
      errorTexts(responsesOf(operationOf(method, path))[status]);
    const members = '/api/v1/projects/{projectId}/members';
    expect(texts('POST', members, 404)).toEqual([ErrorText.projectNotFound, ErrorText.userNotFound]);
    expect(texts('POST', members, 409)).toEqual([ErrorText.alreadyMember]);
    expect(texts('DELETE', `${members}/{email}`, 404)).toEqual([ErrorText.projectNotFound, ErrorText.memberNotFound]);
    expect(texts('DELETE', `${members}/{email}`, 409)).toEqual([ErrorText.ownerRemoval]);
    expect(texts('DELETE', '/api/v1/tokens/{id}', 404)).toEqual([ErrorText.tokenNotFound]);
    expect(texts('POST', '/api/v1/tokens', 409)).toEqual([ErrorText.tokenLimit]);
    expect(operationOf('POST', '/api/v1/tokens').responses[201]).toBeDefined();
  });

  it('lists every route of the route table and nothing else but itself', () => {
    const documented = Object.entries(document.paths as Json).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(
      [...routes.map((route) => `${route.method} ${route.path}`), `GET ${API_DOCUMENT_PATH}`].sort(),
    );
    expect(operationOf('GET', API_DOCUMENT_PATH).security).toEqual([]);
  });

  it("files each route under its contract's tag, and lists each tag once, described and in use", () => {
    for (const route of routes) expect(operationOf(route.method, route.path).tags).toEqual([route.tag]);
    const listed = (document.tags as Json[]).map((tag) => tag.name);
    expect(listed).toEqual([...Object.keys(API_TAGS), 'document']);
    for (const tag of document.tags as Json[]) expect(tag.description).toEqual(expect.any(String));
    const used = new Set(
      Object.values(document.paths as Json).flatMap((item) => Object.values(item as Json).flatMap((op) => op.tags)),
    );
    expect([...used].sort()).toEqual([...listed].sort());
  });

  it('documents the maps of a PATCH body by secret name, as a client must send them', () => {
    const body = operationOf('PATCH', '/api/v1/projects/{projectId}/environments/{environment}/secrets').requestBody
      .content['application/json'].schema;
    const name = { type: 'string', pattern: expect.stringContaining('[A-Za-z_]'), description: expect.any(String) };
    expect(body.properties.set).toEqual({
      type: 'object',
      propertyNames: name,
      additionalProperties: expect.objectContaining({ type: 'string' }),
    });
    expect(body.properties.expectedVersions).toEqual({
      type: 'object',
      propertyNames: name,
      additionalProperties: expect.objectContaining({ type: 'integer', minimum: 0 }),
    });
  });

  it('names the credentials each route accepts', () => {
    const { apiToken, session } = document.components.securitySchemes;
    expect(apiToken).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'svc_live_…' });
    expect(session).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    for (const route of routes) {
      const operation = operationOf(route.method, route.path);
      expect(operation.security).toEqual(
        route.signIn ? [] : route.tokenScope === null ? [{ session: [] }] : [{ apiToken: [] }, { session: [] }],
      );
      if (route.tokenScope) expect(operation.description).toContain(`\`${route.tokenScope}\``);
    }
  });

  it('gives the svc_live_ token format as a pattern that real tokens match', () => {
    const pattern = new RegExp(document.components.schemas.ApiToken.pattern);
    for (let i = 0; i < 20; i += 1) expect(mintToken().rawToken).toMatch(pattern);
    expect('svc_live_short').not.toMatch(pattern);
    expect(`svc_test_${mintToken().rawToken.slice(9)}`).not.toMatch(pattern);
    const created = operationOf('POST', '/api/v1/tokens').responses[201].content['application/json'].schema;
    expect(created.properties.data.properties.rawToken).toEqual({ $ref: '#/components/schemas/ApiToken' });
  });

  it('carries every error text of the contract that a route can answer', () => {
    const body = JSON.stringify({ paths: document.paths, responses: document.components.responses });
    for (const text of Object.values(ErrorText)) {
      // `Not found` is the gateway's answer to an unknown path, which no route of the document is.
      if (text === ErrorText.notFound) continue;
      expect(body).toContain(JSON.stringify(text));
    }
  });

  it('is served as JSON without `$` or `#`, which API Gateway templates (VTL) would interpret', () => {
    const body = apiDocumentBody('https://dashboard.example.com/');
    expect(body).not.toMatch(/[$#]/);
    expect(JSON.parse(body)).toEqual({ ...document, 'x-dashboard-url': 'https://dashboard.example.com/' });
    // API Gateway's limit for a mapping template is 300 KB.
    expect(Buffer.byteLength(body)).toBeLessThan(300 * 1024);
  });
});
