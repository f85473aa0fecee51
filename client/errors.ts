/** The errors of the typed client: an answer of the API that is not a success, or no answer at all. */

/** A field a validation failure names (`details` of a 400 `Validation failed`). */
export interface ErrorDetail {
  readonly path: string;
  readonly message: string;
}

/**
 * An answer of the API that is not a 2xx, in the API's own words: `error` is its exact text (also the
 * message), `details` the fields a validation failure names. Thrown after the retries of a 429 or 503
 * are spent.
 */
export class SecretsApiError extends Error {
  override readonly name: string = 'SecretsApiError';
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The API's error text, exactly (`Secret not found`, `Invalid IP address for this token`, ...). */
    readonly error: string,
    /** The failed fields of a `Validation failed`. */
    readonly details?: readonly ErrorDetail[],
  ) {
    super(error);
  }
}

/**
 * No answer: the service could not be reached (connection refused or reset, name not found) or did not
 * answer within the timeout (`timedOut`). `cause` is the underlying error. Never retried: a pipeline
 * decides what an unreachable service means to it.
 */
export class SecretsNetworkError extends Error {
  override readonly name = 'SecretsNetworkError';
  constructor(
    message: string,
    /** Whether the request's timeout ran out, rather than the connection failing. */
    readonly timedOut: boolean,
    options: { readonly cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A service account's sign-in that the service refused (401 `Unauthorized: Identity not accepted`): no
 * trust rule of `serviceAccountId` accepts what was shown (a workload's OIDC token, an AWS identity),
 * or there is no such service account; the service says which only in its log and audit trail.
 */
export class SignInRefusedError extends SecretsApiError {
  override readonly name = 'SignInRefusedError';
  constructor(
    /** The service account signed in as (`sa_…`). */
    readonly serviceAccountId: string,
    status: number,
    error: string,
  ) {
    super(status, error);
  }
}
