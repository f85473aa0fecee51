import { ErrorText } from '@contract/errors';
import { RETRY_AFTER_SECONDS } from '@contract/limits';
import { ApiError, DecryptionError, ServiceUnavailableError } from '@lambdas/domain/errors';
import { logger } from '@lambdas/observability';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { errorBody, json } from './responses';

/** The one mapping from an error to the HTTP answer. Unknown errors are logged and answered without detail. */
export const errorResponse = (error: unknown): APIGatewayProxyResult => {
  if (error instanceof ServiceUnavailableError) {
    logger.warn('dependency unavailable', { error });
    return json(503, errorBody(ErrorText.unavailable), { 'Retry-After': RETRY_AFTER_SECONDS });
  }
  if (error instanceof ApiError) {
    return json(error.status, errorBody(error.message, error.details));
  }
  if (error instanceof DecryptionError) {
    // A stored value or data key refused where it was read: changed, moved or replayed in the table, or
    // a key KMS no longer unwraps. The message names the item (never a value); the caller learns nothing.
    logger.error('stored value refused', { error });
    return json(500, errorBody(ErrorText.internal));
  }
  logger.error('unhandled error', { error });
  return json(500, errorBody(ErrorText.internal));
};
