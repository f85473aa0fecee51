import { ErrorText } from '@contract/errors';
import { RETRY_AFTER_SECONDS } from '@contract/limits';
import {
  ApiError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  TokenExpiredError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from '@lambdas/domain/errors';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { describeError, logger } from './logger';
import { errorBody, json } from './responses';

const statusOf = (error: ApiError): number => {
  if (error instanceof UnauthorizedError || error instanceof TokenExpiredError) return 401;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  if (error instanceof BadRequestError) return 400;
  if (error instanceof PayloadTooLargeError) return 413;
  if (error instanceof UnsupportedMediaTypeError) return 415;
  return 500;
};

/** The one mapping from an error to the HTTP answer. Unknown errors are logged and answered without detail. */
export const errorResponse = (error: unknown): APIGatewayProxyResult => {
  if (error instanceof ServiceUnavailableError) {
    logger.warn('dependency unavailable', describeError(error));
    return json(503, errorBody(ErrorText.unavailable), { 'Retry-After': RETRY_AFTER_SECONDS });
  }
  if (error instanceof ApiError) {
    return json(
      statusOf(error),
      errorBody(error.message, error instanceof BadRequestError ? error.details : undefined),
    );
  }
  logger.error('unhandled error', describeError(error));
  return json(500, errorBody(ErrorText.internal));
};
