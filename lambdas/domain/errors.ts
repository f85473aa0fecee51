import { ErrorText, type ValidationDetail } from '@contract/errors';

/** Base of every error the API answers with its own text; the HTTP mapping lives in `lambdas/http/errors.ts`. */
export abstract class ApiError extends Error {}

/** No credential, or one that is malformed, unknown, revoked or unverifiable. */
export class UnauthorizedError extends ApiError {
  override readonly name = 'UnauthorizedError';
  constructor() {
    super(ErrorText.unauthorized);
  }
}

/** A credential past its lifetime. */
export class TokenExpiredError extends ApiError {
  override readonly name = 'TokenExpiredError';
  constructor() {
    super(ErrorText.expired);
  }
}

/** The caller is known but may not do this. */
export class ForbiddenError extends ApiError {
  override readonly name = 'ForbiddenError';
}

/** The addressed resource does not exist for this caller. */
export class NotFoundError extends ApiError {
  override readonly name = 'NotFoundError';
}

/** The request conflicts with the stored state. */
export class ConflictError extends ApiError {
  override readonly name = 'ConflictError';
}

/** The request is not of the documented form. */
export class BadRequestError extends ApiError {
  override readonly name = 'BadRequestError';
  constructor(
    message: string,
    readonly details?: readonly ValidationDetail[],
  ) {
    super(message);
  }
}

/** The request body exceeds the limit. */
export class PayloadTooLargeError extends ApiError {
  override readonly name = 'PayloadTooLargeError';
  constructor() {
    super(ErrorText.tooLarge);
  }
}

/** The request body is not declared as JSON. */
export class UnsupportedMediaTypeError extends ApiError {
  override readonly name = 'UnsupportedMediaTypeError';
  constructor() {
    super(ErrorText.contentType);
  }
}

/** A dependency (DynamoDB, the identity provider's keys) is throttled or down; the client may retry. */
export class ServiceUnavailableError extends ApiError {
  override readonly name = 'ServiceUnavailableError';
  constructor(options?: { cause?: unknown }) {
    super(ErrorText.unavailable, options);
  }
}
