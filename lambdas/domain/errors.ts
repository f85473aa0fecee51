import type { SignInRefusal } from '@contract/audit';
import { ErrorText, type ValidationDetail } from '@contract/errors';

/**
 * Base of every error the API answers with its own text and status; `lambdas/http/errors.ts` turns
 * one into its answer.
 */
export abstract class ApiError extends Error {
  /** The HTTP status the error is answered with. */
  abstract readonly status: number;

  /** `details`: what the caller can act on (each failed field of a 400; the way round a 409). */
  constructor(
    message: string,
    readonly details?: readonly ValidationDetail[],
  ) {
    super(message);
  }
}

/** No credential, or one that is malformed, unknown, revoked or unverifiable. */
export class UnauthorizedError extends ApiError {
  override readonly name = 'UnauthorizedError';
  readonly status = 401;
  constructor() {
    super(ErrorText.unauthorized);
  }
}

/**
 * A sign-in as a service account that proved nothing its trust rules accept. The caller is told no
 * more than that; `refusal` says why, for the log and the audit trail only.
 */
export class IdentityNotAcceptedError extends ApiError {
  override readonly name = 'IdentityNotAcceptedError';
  readonly status = 401;
  constructor(readonly refusal: SignInRefusal) {
    super(ErrorText.identityNotAccepted);
  }
}

/** A credential past its lifetime. */
export class TokenExpiredError extends ApiError {
  override readonly name = 'TokenExpiredError';
  readonly status = 401;
  constructor() {
    super(ErrorText.expired);
  }
}

/** The caller is known but may not do this. */
export class ForbiddenError extends ApiError {
  override readonly name = 'ForbiddenError';
  readonly status = 403;
}

/** The addressed resource does not exist for this caller. */
export class NotFoundError extends ApiError {
  override readonly name = 'NotFoundError';
  readonly status = 404;
}

/** The request conflicts with the stored state. */
export class ConflictError extends ApiError {
  override readonly name = 'ConflictError';
  readonly status = 409;
}

/** The request is not of the documented form. */
export class BadRequestError extends ApiError {
  override readonly name = 'BadRequestError';
  readonly status = 400;
}

/** The request body exceeds the limit. */
export class PayloadTooLargeError extends ApiError {
  override readonly name = 'PayloadTooLargeError';
  readonly status = 413;
  constructor() {
    super(ErrorText.tooLarge);
  }
}

/** The request body is not declared as JSON. */
export class UnsupportedMediaTypeError extends ApiError {
  override readonly name = 'UnsupportedMediaTypeError';
  readonly status = 415;
  constructor() {
    super(ErrorText.contentType);
  }
}

/** A dependency (DynamoDB, the identity provider's keys) is throttled or down; the client may retry. */
export class ServiceUnavailableError extends ApiError {
  override readonly name = 'ServiceUnavailableError';
  readonly status = 503;
  constructor(options?: { cause?: unknown }) {
    super(ErrorText.unavailable);
    if (options !== undefined) this.cause = options.cause;
  }
}

/**
 * A stored value or data key that does not decrypt where it is read: its bytes were changed, it was
 * moved from another item or project, or it was sealed under another key. Deliberately not an
 * `ApiError`: `lambdas/http/errors.ts` answers it as any unexpected error, 500 with the generic text,
 * and logs it; its message names the item, never a value or a key.
 */
export class DecryptionError extends Error {
  override readonly name = 'DecryptionError';
}
