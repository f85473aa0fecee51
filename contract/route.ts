import type * as z from 'zod/mini';
import type { ErrorTextValue } from './schemas';
import type { Scope } from './scopes';
import type { DataCall } from './work';

/** HTTP methods the API serves. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type NonEmpty<T> = readonly [T, ...T[]];

/**
 * The groups the API document and its typed client file operations under, each with what it holds (the
 * document's top-level `tags`, in this order).
 */
export const API_TAGS = {
  tokens: 'API tokens of the caller: create, list, rotate, revoke; and the caller as the API sees it',
  projects: 'Projects the caller belongs to, and creating one',
  members: "A project's members and their roles",
  audit: "The audit trail: the caller's own events and a project's",
  secrets: "A project's environments and their versioned, encrypted secrets: read, write, export, history, restore",
  changes:
    'Change requests: proposed changes of an environment’s secrets, approved by others and applied all or nothing',
  serviceAccounts:
    'Service accounts of a project: machine identities that belong to the project, with their access to its environments',
  shares:
    'Secrets handed from one person to another, end-to-end encrypted: the service holds ciphertext it cannot read',
  webhooks:
    'A project’s webhooks: its audit events, never a value, signed and delivered to public https receivers, with each delivery’s outcome',
} as const;

/** The group of an operation in the API document (`API_TAGS`). */
export type ApiTag = keyof typeof API_TAGS;

/** The schemas of a route: path parameters, query string, JSON body (body routes only), success answer. */
export interface RouteSchemas {
  readonly params?: z.ZodMiniObject;
  readonly query?: z.ZodMiniObject;
  readonly body?: z.ZodMiniType;
  readonly response: z.ZodMiniType;
}

/**
 * One route's whole contract, the single source of truth for the stack, the local gateway, the
 * authorizer's rules, request validation, the API document, the tests that walk every route and the
 * bench. Adding a route adds one of these, alone in its module `contract/routes/<handler>.ts`, and its
 * function module (docs/contributing.md, "Add a route").
 */
export interface RouteContract<S extends RouteSchemas = RouteSchemas> {
  readonly method: HttpMethod;
  /** Resource path in API Gateway form, with `{param}` segments. */
  readonly path: string;
  /** The route's function module, `lambdas/routes/<handler>.ts`; it exports `handler`. */
  readonly handler: string;
  /** The group the API document and the typed client file the route under. */
  readonly tag: ApiTag;
  /**
   * Scope an API token needs (`admin` grants every scope), or `null` when API tokens may not call the
   * route at all. Sessions may call every route.
   */
  readonly tokenScope: Scope | null;
  /**
   * Whether a service account's credential may call the route: only the work on an environment's
   * secrets and change requests that a pipeline does, never a project's administration, its members,
   * tokens, shares or `/me` (403 `Forbidden: Not allowed for a service account`).
   */
  readonly serviceAccounts?: true;
  /**
   * A sign-in: called with no credential (no authorizer runs), the route proves who calls and answers
   * a short-lived token; every refusal is 401 `Unauthorized: Identity not accepted`, with no detail.
   * Its `tokenScope` is `null`: no token calls it either.
   */
  readonly signIn?: true;
  /** One line for people: logs, the README and the API document. */
  readonly summary: string;
  /**
   * The success answer's status and its description in the API document; `created` describes the 201
   * of a route that answers 200 when it changes a resource and 201 when it creates one (a PUT).
   */
  readonly success: { readonly status: 200 | 201; readonly description: string; readonly created?: string };
  /**
   * The texts of the errors the route's own work can answer, beyond the ones every route or every
   * body route answers (derived in `routeErrors`). A malformed path parameter answers the 404 text
   * `paramErrors` names for it, which must be among `notFound` (or is `Validation failed`, a 400 with
   * details, for a parameter that names what a write creates).
   */
  readonly errors: {
    readonly forbidden?: NonEmpty<ErrorTextValue>;
    readonly notFound?: NonEmpty<ErrorTextValue>;
    readonly conflict?: NonEmpty<ErrorTextValue>;
  };
  /**
   * The 404 text a path parameter that breaks its schema answers, per parameter; `Validation failed`
   * answers 400 with the schema's details instead (a name a PUT would create: the writer is told why).
   */
  readonly paramErrors?: Readonly<Record<string, ErrorTextValue>>;
  /**
   * Whether the route's success answers an `ETag`, and a request whose `If-None-Match` holds it 304
   * with no body, once it is allowed all a 200 is: a poller asks again without the answer being made
   * (docs/api.md, "Polling").
   */
  readonly conditional?: boolean;
  /** Largest JSON body the route accepts, in bytes (default `MAX_BODY_BYTES`); a larger one is 413. */
  readonly maxBodyBytes?: number;
  /** Metric counted once per successful request, for routes that change state worth counting. */
  readonly successMetric?: string;
  /**
   * The DynamoDB calls the route makes, by its access pattern (docs/data-model.md): those not marked
   * `beyondFloor` are the least a successful request needs, which `npm run bench` and the integration
   * suite hold it to; all of them are what the stack grants its function (`grantsOf`). Why each is
   * needed is a comment.
   */
  readonly dataAccess: readonly DataCall[];
  /**
   * The KMS calls the route makes with the secrets key, always under the encryption context
   * `{projectId}`: `Decrypt` unwraps a project's data key, `GenerateDataKey` makes a project's first.
   * The stack grants its function these and no other (none when absent: the function never sees the key).
   */
  readonly keyUse?: readonly ('Decrypt' | 'GenerateDataKey')[];
  /**
   * The route's schemas, built on its first call and kept: a function builds its own route's only,
   * when its first request needs them, not at load.
   */
  readonly schemas: () => S;
  /**
   * A request that succeeds in `world`: the tests that walk every route send it (with `SAMPLE_WORLD`'s
   * well-formed ids), and the bench measures each route's work with it in a world made for it.
   */
  readonly sample: (world: SampleWorld) => SampleRequest;
}

/**
 * What a sample request may refer to: the caller owns a project with one other member, holds a
 * spare token, and another user has signed in but belongs to no project of the caller's. The project's
 * `SAMPLE_SECRET` is at version 1, which stored the project's data key. The caller also holds a live
 * share, `SAMPLE_SHARE`, and in `SAMPLE_SECRET`'s environment the member and the caller have each
 * proposed a change request, open. The caller is also a plain member of the other member's project,
 * `joinedProjectId`, added by them and not opened yet. The caller's project holds one service account,
 * `serviceAccountId`, that reads `SAMPLE_SECRET`'s environment, and a webhook, `webhookId`.
 */
export interface SampleWorld {
  readonly projectId: string;
  /** A project of the other member's, to which they added the caller as a plain member. */
  readonly joinedProjectId: string;
  readonly tokenId: string;
  readonly memberEmail: string;
  readonly otherEmail: string;
  /** A share the caller created, with views to spare, that any signed-in person may reveal. */
  readonly shareId: string;
  /** An open change request of the member's in `SAMPLE_SECRET`'s environment, setting one secret. */
  readonly changeRequestId: string;
  /** An open change request of the caller's own there. */
  readonly ownChangeRequestId: string;
  /** A service account of the caller's project. */
  readonly serviceAccountId: string;
  /** A static token of that service account's (made only for a route whose sample names one). */
  readonly serviceAccountTokenId: string;
  /** A trust rule of that service account's (made only for a route whose sample names one). */
  readonly trustRuleId: string;
  /**
   * A workload's OIDC token that an `oidc` trust rule of that service account accepts, and a signed
   * `sts:GetCallerIdentity` request of a principal an `aws` rule names (made only for the sign-ins).
   */
  readonly workloadToken: string;
  readonly awsSignInRequest: { readonly headers: Readonly<Record<string, string>>; readonly body: string };
  /** A webhook of the caller's project. */
  readonly webhookId: string;
}

/**
 * The secret a sample world's project holds (the secret routes' samples name it): a small value, so its
 * items stay within the 1 KB the work floors assume.
 */
export const SAMPLE_SECRET = {
  environment: 'development',
  name: 'DATABASE_URL',
  value: 'postgres://app:s3cret@db.internal:5432/app',
} as const;

/** A world of well-formed values, for requests whose outcome does not depend on stored data. */
export const SAMPLE_WORLD: SampleWorld = {
  projectId: 'prj_AAAAAAAAAAAAAAAA',
  joinedProjectId: 'prj_BBBBBBBBBBBBBBBB',
  tokenId: 'AAAAAAAAAAAA',
  memberEmail: 'member@example.com',
  otherEmail: 'someone@example.com',
  shareId: 'shr_AAAAAAAAAAAAAAAAAAAAAA',
  changeRequestId: 'chg_AAAAAAAAAAAAAAAA',
  ownChangeRequestId: 'chg_BBBBBBBBBBBBBBBB',
  serviceAccountId: 'sa_AAAAAAAAAAAAAAAA',
  serviceAccountTokenId: 'BBBBBBBBBBBB',
  trustRuleId: 'tr_AAAAAAAAAAAAAAAA',
  workloadToken: 'eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl',
  awsSignInRequest: { headers: {}, body: 'Action=GetCallerIdentity&Version=2011-06-15' },
  webhookId: 'whk_AAAAAAAAAAAAAAAA',
};

/**
 * The share a sample world's caller holds: a small ciphertext (the service never sees its key), with
 * views enough for every request the bench and the tests send it.
 */
export const SAMPLE_SHARE = {
  ciphertext: 'q1Yp3d0-RkZ0bGxsVXpXbm9wZ2ZpU3FqWkxmR0R4d0ZzTjhtTnJ3',
  maxViews: 100,
} as const;

/**
 * A request: its raw path parameters (as they appear in the path, percent-encoded), its query
 * parameters (decoded) and JSON body.
 */
export interface SampleRequest {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** Whether a module's export is a route contract. */
export const isRouteContract = (value: unknown): value is RouteContract =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'handler' in value;

/** A route contract whose schemas are built once, on first use. */
export const route = <S extends RouteSchemas>(contract: RouteContract<S>): RouteContract<S> => {
  let built: S | undefined;
  return {
    ...contract,
    schemas: () => {
      built ??= contract.schemas();
      return built;
    },
  };
};

/** What a route's handler receives after validation: its body and path parameters, as its schemas give them. */
export type RouteInput<R> =
  R extends RouteContract<infer S>
    ? {
        readonly body: S['body'] extends z.ZodMiniType ? z.output<S['body']> : undefined;
        readonly params: S['params'] extends z.ZodMiniType ? z.output<S['params']> : Record<string, never>;
        readonly query: S['query'] extends z.ZodMiniType ? z.output<S['query']> : Record<string, never>;
      }
    : never;

type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** The success body of a route, as its response schema describes it (read-only data is welcome). */
export type RouteAnswer<R> = R extends RouteContract<infer S> ? DeepReadonly<z.input<S['response']>> : never;
