import { ErrorText } from '@contract/errors';
import { describeSession } from '@lambdas/use-cases/me';
import { origin, session } from './fakes';

describe('describeSession', () => {
  it('answers the session’s user, e-mail and the address a token created now would be bound to', () => {
    expect(describeSession(session, origin)).toEqual({
      userId: 'u-1',
      email: 'ada@example.com',
      sourceIp: '203.0.113.7',
    });
  });

  it('gives an IPv4-mapped address in its IPv4 form', () => {
    expect(describeSession(session, { ...origin, sourceIp: '::ffff:203.0.113.7' }).sourceIp).toBe('203.0.113.7');
  });

  it('fails closed (401) without an e-mail or an address', () => {
    for (const [principal, from] of [
      [{ ...session, email: undefined }, origin],
      [session, { ...origin, sourceIp: null }],
    ] as const) {
      expect(() => describeSession(principal, from)).toThrow(
        expect.objectContaining({ status: 401, message: ErrorText.unauthorized }),
      );
    }
  });
});
