import { createHash } from 'node:crypto';
import { bodyIsOptional } from '@contract/body';
import { API_DOCUMENT_PATH, DASHBOARD_URL_FIELD } from '@contract/dashboard';
import { ERRORS_WITH_DETAILS } from '@contract/errors';
import { NO_STORE_HEADERS } from '@contract/headers';
import { TOKEN_PATTERN, TOKEN_PREFIX } from '@contract/identifiers';
import { MAX_BODY_BYTES, RETRY_AFTER_SECONDS } from '@contract/limits';
import { API_TAGS, type RouteContract } from '@contract/route';
import { routeErrors } from '@contract/route-table';
import { routes } from '@contract/routes';
import { type ErrorTextValue, errorBody } from '@contract/schemas';
import * as z from 'zod/mini';
import {
  type CreateDocumentOptions,
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { version } from '../package.json';

export { API_DOCUMENT_PATH };

/** The group of the one operation that is no route contract's: this document. */
const DOCUMENT_TAG = 'document';

type NonEmpty<T> = readonly [T, ...T[]];

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'The body is not JSON, or breaks a rule of the request schema (with `details`)',
  401: 'No, malformed, unknown, revoked or unverifiable credential; or an expired one',
  403: 'The credential may not call this route, or the web ACL blocked the request',
  404: 'The addressed resource does not exist for this caller',
  409: 'The request conflicts with the stored state',
  413: `Body over ${MAX_BODY_BYTES / 1024} KiB`,
  415: 'A body without `Content-Type: application/json`',
  429: 'The per-credential limit (with `Retry-After`), the per-IP limit of the web ACL, or stage throttling',
  500: 'A bug; details only in the log',
  503: 'DynamoDB or the identity provider keys unreachable; retry after `Retry-After` seconds',
};

const jsonContent = (schema: z.ZodMiniType) => ({ 'application/json': { schema } });

/** The header on every answer (the component `CacheControl`, named once in the document). */
const cacheControl = () =>
  z
    .literal(NO_STORE_HEADERS['Cache-Control'])
    .check(z.meta({ header: { id: 'CacheControl' } }), z.describe('No answer may be kept by a browser or a cache'));

/** A conditional route's entity tag (the component `ETag`). */
const etag = () =>
  z
    .string()
    .check(
      z.meta({ header: { id: 'ETag' } }),
      z.describe(
        'An opaque tag of this answer, the same while it stays the same: send it back as `If-None-Match` to get 304 until it changes',
      ),
    );

/** The request header of a poll of a conditional route. */
const ifNoneMatch = () =>
  z.object({
    'If-None-Match': z.optional(
      z
        .string()
        .check(
          z.describe(
            'The `ETag` of an earlier answer (or several, comma-separated; `*`: any): while it still holds, the answer is 304 with no body, and nothing is read or recorded. Refusals are answered as without it',
          ),
        ),
    ),
  });

/**
 * Each distinct error answer (a status and its texts), made once and registered as a component that
 * every route answering it refers to, rather than written out in each route: most are the same for
 * many routes (every route's 401, 429, 500 and 503), and the document must stay under the 300 KB of
 * the mapping template that serves it as routes are added. Its id names the status and a digest of the
 * texts, so it stays the same while they do.
 */
const errorResponses = new Map<string, ZodOpenApiResponseObject>();

const errorResponse = (status: number, texts: NonEmpty<ErrorTextValue>): ZodOpenApiResponseObject => {
  const key = `${status}\n${texts.join('\n')}`;
  const made = errorResponses.get(key) ?? {
    id: `Error${status}-${createHash('sha256').update(key).digest('hex').slice(0, 8)}`,
    ...errorAnswer(status, texts),
  };
  errorResponses.set(key, made);
  return made;
};

const errorAnswer = (status: number, texts: NonEmpty<ErrorTextValue>): ZodOpenApiResponseObject => ({
  description: ERROR_DESCRIPTIONS[status] ?? 'Error',
  content: jsonContent(
    errorBody(
      texts,
      texts.some((text) => ERRORS_WITH_DETAILS.has(text)),
    ),
  ),
  headers: z.object({
    'Cache-Control': cacheControl(),
    ...(status === 503 && {
      'Retry-After': z.literal(RETRY_AFTER_SECONDS).check(z.describe('Seconds to wait before retrying')),
    }),
    ...(status === 429 && {
      'Retry-After': z.optional(
        z
          .string()
          .check(
            z.regex(/^[1-9]\d*$/),
            z.describe('Seconds to wait before retrying: sent by the per-credential limit, not by the other limits'),
          ),
      ),
    }),
  }),
});

const security = (route: RouteContract): Record<string, string[]>[] => {
  if (route.signIn) return [];
  return route.tokenScope === null ? [{ session: [] }] : [{ apiToken: [] }, { session: [] }];
};

const operation = (route: RouteContract): ZodOpenApiOperationObject => {
  const { params, query, body, response } = route.schemas();
  const who = route.signIn
    ? 'No credential: the body carries the proof, and every refusal is the same 401.'
    : route.tokenScope === null
      ? 'Dashboard session only; an API token gets 403.'
      : `A dashboard session, or an API token with the \`${route.tokenScope}\` scope (\`admin\` grants every scope).${route.serviceAccounts ? ' A service account’s token may call it.' : ''}`;
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [route.success.status]: {
      description: route.success.description,
      content: jsonContent(response),
      headers: z.object({ 'Cache-Control': cacheControl(), ...(route.conditional && { ETag: etag() }) }),
    },
  };
  if (route.conditional) {
    responses[304] = {
      description: 'Unchanged: `If-None-Match` holds the answer’s `ETag`. No body; nothing read or recorded',
      headers: z.object({ 'Cache-Control': cacheControl(), ETag: etag() }),
    };
  }
  if (route.success.created !== undefined) {
    responses[201] = {
      description: route.success.created,
      content: jsonContent(response),
      headers: z.object({ 'Cache-Control': cacheControl() }),
    };
  }
  for (const [status, texts] of routeErrors(route)) responses[status] = errorResponse(status, texts);
  return {
    operationId: route.handler.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase()),
    tags: [route.tag],
    summary: route.summary,
    description: who,
    security: security(route),
    ...((params || query || route.conditional) && {
      requestParams: {
        ...(params && { path: params }),
        ...(query && { query }),
        ...(route.conditional && { header: ifNoneMatch() }),
      },
    }),
    ...(body && { requestBody: { required: !bodyIsOptional(body), content: jsonContent(body) } }),
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
      tags: [DOCUMENT_TAG],
      summary: 'This document',
      description: 'No authentication.',
      security: [],
      responses: {
        200: {
          description: 'The OpenAPI document',
          content: jsonContent(
            z.looseObject({
              openapi: z.literal('3.1.0'),
              [DASHBOARD_URL_FIELD]: z
                .string()
                .check(
                  z.describe(
                    'Where the web dashboard is (an absolute URL ending in `/`): the base of the links a client makes to it, such as a share’s `<dashboard>/s/shr_…#key`',
                  ),
                ),
            }),
          ),
          headers: z.object({ 'Cache-Control': cacheControl() }),
        },
      },
    },
  };
  return result;
};

/**
 * A pipe from `z.unknown()` only screens its input before the schema it pipes into (`byName` in
 * contract/schemas.ts refuses a `__proto__` key that a record would drop unseen), so a request
 * renders as that schema, what a client must send, rather than as the anything of its first stage.
 */
const documentScreenedInput: NonNullable<CreateDocumentOptions['override']> = ({ jsonSchema, zodSchema, io }) => {
  const def = zodSchema._zod.def;
  if (io !== 'input' || def.type !== 'pipe') return;
  const { in: screen, out: target } = def as unknown as { in: z.ZodMiniType; out: z.ZodMiniType };
  if (screen._zod.def.type !== 'unknown') return;
  const { $schema: _dialect, ...rendered } = z.toJSONSchema(target, { io: 'input', target: 'draft-2020-12' });
  Object.assign(jsonSchema, rendered);
};

let cached: oas31.OpenAPIObject | undefined;

/** The OpenAPI 3.1 document of the API, generated from the route contracts. */
export const apiDocument = (): oas31.OpenAPIObject => {
  cached ??= createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Secrets Service API',
        version,
        description:
          'Secrets, API tokens, dashboard sessions and project members. Every error body is `{"success": false, "error": "<text>"}` with exactly the texts listed per status; an unknown path or method answers 404 `Not found`.\n\n' +
          "Identity: a user is the identity provider's stable subject (`sub`), the `userId` everywhere; memberships, ownership and a token's owner are keyed by it, never by an e-mail address, so a token acts as its creator whatever their address becomes. " +
          "The e-mail is the address of the user's latest verified session: it finds a user when they are added or removed by e-mail, and the member list shows it. " +
          'Every address obeys one rule, judged before lower-casing: after trimming, printable ASCII only, exactly one `@` between non-empty parts, at most 254 characters.\n\n' +
          'Secrets: a project holds environments (a new one has `development`, `staging`, `production`; at most 20), an environment holds secrets (a name like an environment variable, a UTF-8 value of at most 65,536 bytes; at most 1,000 live, and 5,000,000 bytes of export). ' +
          'Every write makes a new immutable version; `expectedVersion` makes a write check-and-set (409 `Secret version conflict`). A delete is soft: the versions stay listed and restorable for 30 days. ' +
          'Values are encrypted with AES-256-GCM under a data key per project that KMS wraps, and every answer that holds a value is recorded in the audit trail (`secret.read`) before it is sent.',
        contact: { name: 'Secrets Service maintainers' },
      },
      tags: [
        ...Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
        { name: DOCUMENT_TAG, description: 'This OpenAPI document, without authentication' },
      ],
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
            description: `An API token matching \`${TOKEN_PATTERN.source}\` (schema \`ApiToken\`), bound to the address that created it.`,
          },
          session: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              "The identity provider's session JWT (Cognito ID token or any OIDC issuer; RS256/ES256) with `email` and `email_verified: true`.",
          },
        },
      },
      paths: paths(),
    },
    { override: documentScreenedInput },
  );
  return cached;
};

/**
 * The document as served, by the local runtime and by the stack's mock integration alike, with where
 * the dashboard is (`DASHBOARD_URL_FIELD`) as its last field. API Gateway's integration response
 * templates are Velocity (VTL), where `$` and `#` start references and directives; in JSON both can
 * only occur inside strings, so they are written as the JSON escapes `\u0024` and `\u0023`: the
 * template holds neither, and the client parses the same document. The dashboard's URL is added after
 * that escaping, as given: the stack's is a deploy-time value (the distribution's domain) that a CDK
 * token stands for here, and an origin holds neither character.
 */
export const apiDocumentBody = (dashboardUrl: string): string => {
  cachedBody ??= JSON.stringify(apiDocument()).replace(/\$/g, '\\u0024').replace(/#/g, '\\u0023');
  return `${cachedBody.slice(0, -1)},${JSON.stringify(DASHBOARD_URL_FIELD)}:${JSON.stringify(dashboardUrl)}}`;
};
let cachedBody: string | undefined;
