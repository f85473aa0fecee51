import { DecryptionError } from '@lambdas/domain/errors';
import { errorResponse } from '@lambdas/http/errors';
import { logger } from '@lambdas/observability';

afterEach(() => jest.restoreAllMocks());

describe('errorResponse', () => {
  it('answers a value that does not decrypt as any unexpected failure, logging the item it names', () => {
    const logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const error = new DecryptionError(
      'The value of prj_a/production/API_KEY version 1 (the head, life L) does not decrypt',
    );

    const answer = errorResponse(error);

    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({ success: false, error: 'Internal server error' });
    expect(answer.body).not.toContain('API_KEY');
    expect(logged).toHaveBeenCalledWith('stored value refused', { error });
  });
});
