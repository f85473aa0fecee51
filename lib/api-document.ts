import { ErrorText } from '@contract/errors';
import { RETRY_AFTER_SECONDS } from '@contract/gateway-responses';
import { TOKEN_PREFIX } from '@contract/identifiers';
import { MAX_BODY_BYTES } from '@contract/limits';
import { type RouteDefinition, routes } from '@contract/routes';
import * as z from 'zod/mini';
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { version } from '../package.json';
import {
  API_TOKEN_PATTERN,
  addMemberBodySchema,
  apiToken,
  createdProject,
  createdToken,
  createProjectBodySchema,
  createTokenBodySchema,
  dataBody,
  type ErrorTextValue,
  errorBody,
  memberSummary,
  messageBody,
  projectSummary,
  successBody,
  tokenSummary,
} from './api-schemas';

/** Where the local runtime and the stack serve the document, without authentication. */
export const API_DOCUMENT_PATH = '/api/v1/openapi.json';

type NonEmpty<T> = readonly [T, ...T[]];

/**
 * What the route table does not say about a route: its request body schema, its success answer,
 * and the domain errors its use case can throw. Everything else (security, 400/413/415 of a body
 * route, 401, the authorizer's 403s, 429/500/503) is derived from the route table.
 */
interface OperationSpec {
  /** Schema of the JSON body; present exactly when the route table says `hasBody`. */
  readonly body?: z.ZodMiniType;
  readonly success: { readonly status: 200 | 201; readonly description: string; readonly schema: z.ZodMiniType };
  /** 403 texts beyond the authorizer's. */
  readonly forbidden?: NonEmpty<ErrorTextValue>;
  readonly notFound?: NonEmpty<ErrorTextValue>;
  readonly conflict?: NonEmpty<ErrorTextValue>;
}

/** Per handler of the route table (lib/routes.ts). A route without an entry fails the generation. */
const operations: Readonly<Record<string, OperationSpec>> = {
  'create-token': {
    body: createTokenBodySchema,
    success: {
      status: 201,
      description: 'The new token; `rawToken` appears in this response only',
      schema: dataBody(createdToken),
    },
    conflict: [ErrorText.tokenLimit],
  },
  'list-tokens': {
    success: {
      status: 200,
      description: "The caller's active and expired tokens, newest first",
      schema: dataBody(z.array(tokenSummary)),
    },
  },
  'revoke-token': {
    success: { status: 200, description: 'Revoked; its next use is a 401', schema: successBody },
    notFound: [ErrorText.tokenNotFound],
  },
  'create-project': {
    body: createProjectBodySchema,
    success: { status: 201, description: 'The new project; the caller is its owner', schema: dataBody(createdProject) },
  },
  'list-projects': {
    success: {
      status: 200,
      description: "The caller's projects with the caller's role",
      schema: dataBody(z.array(projectSummary)),
    },
  },
  'list-members': {
    success: {
      status: 200,
      description: 'The members, owner first, then by e-mail',
      schema: dataBody(z.array(memberSummary)),
    },
    notFound: [ErrorText.projectNotFound],
  },
  'add-member': {
    body: addMemberBodySchema,
    success: { status: 200, description: 'Added', schema: messageBody('Member added successfully') },
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.userNotFound],
    conflict: [ErrorText.alreadyMember],
  },
  'remove-member': {
    success: { status: 200, description: 'Removed', schema: messageBody('Member removed successfully') },
    forbidden: [ErrorText.projectRole],
    notFound: [ErrorText.projectNotFound, ErrorText.memberNotFound],
    conflict: [ErrorText.ownerRemoval],
  },
};

/** Every error status a route can answer, with its texts, derived from the route table and its spec. */
export const routeErrors = (route: RouteDefinition): ReadonlyMap<number, NonEmpty<ErrorTextValue>> => {
  const spec = operationSpec(route);
  const errors = new Map<number, NonEmpty<ErrorTextValue>>();
  if (route.hasBody) errors.set(400, [ErrorText.malformedJson, ErrorText.validation]);
  errors.set(401, [ErrorText.unauthorized, ErrorText.expired]);
  // The authorizer's order: source IP before the route's scope rule (DESIGN.md).
  errors.set(403, [
    ErrorText.wrongIp,
    route.tokenScope === null ? ErrorText.sessionRequired : ErrorText.scope,
    ...(spec.forbidden ?? []),
    // Only with `waf=true`: the web ACL's answer, before the authorizer runs.
    ErrorText.firewallBlocked,
  ]);
  if (spec.notFound) errors.set(404, spec.notFound);
  if (spec.conflict) errors.set(409, spec.conflict);
  if (route.hasBody) {
    errors.set(413, [ErrorText.tooLarge]);
    errors.set(415, [ErrorText.contentType]);
  }
  errors.set(429, [ErrorText.tooManyRequests]);
  errors.set(500, [ErrorText.internal]);
  errors.set(503, [ErrorText.unavailable]);
  return errors;
};

const operationSpec = (route: RouteDefinition): OperationSpec => {
  const spec = operations[route.handler];
  if (!spec)
    throw new Error(`lib/api-document.ts: no operation spec for ${route.method} ${route.path} (${route.handler})`);
  if (Boolean(spec.body) !== route.hasBody) {
    throw new Error(`lib/api-document.ts: body schema of ${route.handler} disagrees with hasBody in lib/routes.ts`);
  }
  return spec;
};

/** Every status a route can answer: its success and its errors, ascending. */
export const routeStatuses = (route: RouteDefinition): number[] =>
  [operationSpec(route).success.status, ...routeErrors(route).keys()].sort((a, b) => a - b);

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'The body is not JSON, or breaks a rule of the request schema (with `details`)',
  401: 'No, malformed, unknown, revoked or unverifiable credential; or an expired one',
  403: 'The credential may not call this route, or the web ACL (`waf=true`) blocked the request',
  404: 'The addressed resource does not exist for this caller',
  409: 'The request conflicts with the stored state',
  413: `Body over ${MAX_BODY_BYTES / 1024} KiB`,
  415: 'A body without `Content-Type: application/json`',
  429: 'Stage throttling',
  500: 'A bug; details only in the log',
  503: 'DynamoDB or the identity provider keys unreachable; retry after `Retry-After` seconds',
};

const jsonContent = (schema: z.ZodMiniType) => ({ 'application/json': { schema } });

const errorResponse = (status: number, texts: NonEmpty<ErrorTextValue>): ZodOpenApiResponseObject => ({
  description: ERROR_DESCRIPTIONS[status] ?? 'Error',
  content: jsonContent(errorBody(texts, status === 400)),
  ...(status === 503 && {
    headers: z.object({
      'Retry-After': z.literal(RETRY_AFTER_SECONDS).check(z.describe('Seconds to wait before retrying')),
    }),
  }),
});

const pathParameters = (path: string) => {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  if (names.length === 0) return undefined;
  return z.object(
    Object.fromEntries(
      names.map((name) => [
        name,
        z
          .string()
          .check(z.describe(name === 'email' ? 'The member e-mail, percent-encoded (`@` as `%40`)' : `The ${name}`)),
      ]),
    ),
  );
};

const security = (route: RouteDefinition): Record<string, string[]>[] =>
  route.tokenScope === null ? [{ session: [] }] : [{ apiToken: [] }, { session: [] }];

const operation = (route: RouteDefinition): ZodOpenApiOperationObject => {
  const spec = operationSpec(route);
  const params = pathParameters(route.path);
  const who =
    route.tokenScope === null
      ? 'Dashboard session only; an API token gets 403.'
      : `A dashboard session, or an API token with the \`${route.tokenScope}\` scope (\`admin\` grants every scope).`;
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [spec.success.status]: { description: spec.success.description, content: jsonContent(spec.success.schema) },
  };
  for (const [status, texts] of routeErrors(route)) responses[status] = errorResponse(status, texts);
  return {
    operationId: route.handler.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase()),
    summary: route.summary,
    description: who,
    security: security(route),
    ...(params && { requestParams: { path: params } }),
    ...(spec.body && { requestBody: { required: true, content: jsonContent(spec.body) } }),
    responses,
  };
};

const paths = (): ZodOpenApiPathsObject => {
  const result: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const item = result[route.path] ?? {};
    item[route.method.toLowerCase() as 'get' | 'post' | 'delete'] = operation(route);
    result[route.path] = item;
  }
  result[API_DOCUMENT_PATH] = {
    get: {
      operationId: 'apiDocument',
      summary: 'This document',
      description: 'No authentication.',
      security: [],
      responses: {
        200: {
          description: 'The OpenAPI document',
          content: jsonContent(z.looseObject({ openapi: z.literal('3.1.0') })),
        },
      },
    },
  };
  return result;
};

let cached: oas31.OpenAPIObject | undefined;

/** The OpenAPI 3.1 document of the API, generated from the route table and the zod schemas. */
export const apiDocument = (): oas31.OpenAPIObject => {
  cached ??= createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Secrets Service: auth and membership API',
      version,
      description:
        'API tokens, dashboard sessions and project members. Every error body is `{"success": false, "error": "<text>"}` with exactly the texts listed per status; an unknown path or method answers 404 `Not found`.\n\n' +
        "Identity: a user is the identity provider's stable subject (`sub`), the `userId` everywhere; memberships, ownership and a token's owner are keyed by it, never by an e-mail address, so a token acts as its creator whatever their address becomes. " +
        "The e-mail is the address of the user's latest verified session: it finds a user when they are added or removed by e-mail, and the member list shows it. " +
        'Every address obeys one rule, judged before lower-casing: after trimming, printable ASCII only, exactly one `@` between non-empty parts, at most 254 characters.',
    },
    servers: [
      { url: 'http://127.0.0.1:3000', description: 'The local runtime (`npm start`)' },
      {
        url: 'https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}',
        description: 'The deployed stack (output `ApiUrl`)',
        variables: {
          restApiId: { default: 'restApiId' },
          region: { default: 'us-east-1' },
          stage: { default: 'prod' },
        },
      },
    ],
    components: {
      securitySchemes: {
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: `${TOKEN_PREFIX}…`,
          description: `An API token matching \`${API_TOKEN_PATTERN}\` (schema \`ApiToken\`), bound to the address that created it.`,
        },
        session: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "The identity provider's session JWT (Cognito ID token or any OIDC issuer; RS256/ES256) with `email` and `email_verified: true`.",
        },
      },
      schemas: { ApiToken: apiToken },
    },
    paths: paths(),
  });
  return cached;
};

/**
 * The document as served, by the local runtime and by the stack's mock integration alike. API
 * Gateway's integration response templates are Velocity (VTL), where `$` and `#` start references
 * and directives; in JSON both can only occur inside strings, so they are written as the JSON
 * escapes `\u0024` and `\u0023`: the template holds neither, and the client parses the same document.
 */
export const apiDocumentBody = (): string => {
  cachedBody ??= JSON.stringify(apiDocument()).replace(/\$/g, '\\u0024').replace(/#/g, '\\u0023');
  return cachedBody;
};
let cachedBody: string | undefined;
