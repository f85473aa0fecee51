import { ErrorText } from '@contract/errors';
import {
  BadRequestError,
  ConflictError,
  DecryptionError,
  ForbiddenError,
  IdentityNotAcceptedError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  TokenExpiredError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from '@lambdas/domain/errors';
import { errorResponse } from '@lambdas/http/errors';
import { logger } from '@lambdas/observability';

afterEach(() => jest.restoreAllMocks());

describe('the typed errors', () => {
  it.each([
    ['UnauthorizedError', new UnauthorizedError(), 401, ErrorText.unauthorized],
    ['IdentityNotAcceptedError', new IdentityNotAcceptedError('issuer'), 401, ErrorText.identityNotAccepted],
    ['TokenExpiredError', new TokenExpiredError(), 401, ErrorText.expired],
    ['ForbiddenError', new ForbiddenError(ErrorText.scope), 403, ErrorText.scope],
    ['NotFoundError', new NotFoundError(ErrorText.projectNotFound), 404, ErrorText.projectNotFound],
    ['ConflictError', new ConflictError(ErrorText.secretConflict), 409, ErrorText.secretConflict],
    ['BadRequestError', new BadRequestError(ErrorText.validation), 400, ErrorText.validation],
    ['PayloadTooLargeError', new PayloadTooLargeError(), 413, ErrorText.tooLarge],
    ['UnsupportedMediaTypeError', new UnsupportedMediaTypeError(), 415, ErrorText.contentType],
    ['ServiceUnavailableError', new ServiceUnavailableError(), 503, ErrorText.unavailable],
  ])('%s is answered with its status and text, and named so in the log', (name, error, status, text) => {
    jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const answer = errorResponse(error);
    expect([answer.statusCode, JSON.parse(answer.body).error]).toEqual([status, text]);
    expect(error.name).toBe(name);
    expect(String(error)).toBe(`${name}: ${text}`);
  });

  it('logs an unavailable dependency with the failure that caused it', () => {
    const warned = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const cause = new Error('ProvisionedThroughputExceededException');
    errorResponse(new ServiceUnavailableError({ cause }));
    const [message, { error }] = warned.mock.calls[0] as [string, { error: ServiceUnavailableError }];
    expect([message, error.name, error.cause]).toEqual(['dependency unavailable', 'ServiceUnavailableError', cause]);
    expect('cause' in new ServiceUnavailableError()).toBe(false);
  });

  it('names a value that does not decrypt as such in the log', () => {
    expect(String(new DecryptionError('The value of prj_a/production/API_KEY version 1'))).toBe(
      'DecryptionError: The value of prj_a/production/API_KEY version 1',
    );
  });
});
