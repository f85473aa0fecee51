import {
  SessionExpiredError,
  SessionInvalidError,
  SessionKeysUnavailableError,
} from '@lambdas/authorizer/session-errors';

describe('the session errors', () => {
  it.each([
    ['SessionExpiredError', new SessionExpiredError('expired')],
    ['SessionInvalidError', new SessionInvalidError('email-unverified')],
    ['SessionKeysUnavailableError', new SessionKeysUnavailableError('keys')],
  ])('%s is named as its class where the authorizer logs it', (name, error) => {
    expect(String(error)).toBe(`${name}: ${error.message}`);
  });
});
