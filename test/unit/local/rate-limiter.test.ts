import { createCredentialRateLimiter } from '../../../local/rate-limiter';

/** A clock the test moves by hand. */
const fakeClock = (start = 1_700_000_000_000) => {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
};

describe('createCredentialRateLimiter', () => {
  it('allows `limit` requests per credential in a window, then refuses with the seconds until a slot frees', () => {
    const clock = fakeClock();
    const limiter = createCredentialRateLimiter({ limit: 3, now: clock.now });
    expect(limiter.take('Bearer a').allowed).toBe(true);
    clock.advance(10_000);
    expect(limiter.take('Bearer a').allowed).toBe(true);
    expect(limiter.take('Bearer a').allowed).toBe(true);
    // The first request frees its slot 60 s after it was made: 50 s from now.
    expect(limiter.take('Bearer a')).toEqual({ allowed: false, retryAfterSeconds: 50 });
  });

  it('counts each credential on its own', () => {
    const clock = fakeClock();
    const limiter = createCredentialRateLimiter({ limit: 1, now: clock.now });
    expect(limiter.take('Bearer a').allowed).toBe(true);
    expect(limiter.take('Bearer a').allowed).toBe(false);
    expect(limiter.take('Bearer b').allowed).toBe(true);
    expect(limiter.take('Bearer session.jwt').allowed).toBe(true);
  });

  it('frees the slots 60 s after their requests (a sliding window), and never counts a refusal', () => {
    const clock = fakeClock();
    const limiter = createCredentialRateLimiter({ limit: 2, now: clock.now });
    limiter.take('Bearer a');
    clock.advance(30_000);
    limiter.take('Bearer a');
    clock.advance(29_999);
    expect(limiter.take('Bearer a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1);
    expect(limiter.take('Bearer a').allowed).toBe(true); // the first slot is free again
    // The refused request took no slot: the next one frees when the second request turns 60 s old.
    expect(limiter.take('Bearer a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    clock.advance(60_000);
    expect(limiter.take('Bearer a').allowed).toBe(true);
    expect(limiter.take('Bearer a').allowed).toBe(true);
  });

  it('answers a Retry-After of at least 1 second', () => {
    const clock = fakeClock();
    const limiter = createCredentialRateLimiter({ limit: 1, now: clock.now });
    limiter.take('Bearer a');
    clock.advance(59_999);
    expect(limiter.take('Bearer a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('drops credentials idle for a whole window, and holds no more than maxCredentials', () => {
    const clock = fakeClock();
    const limiter = createCredentialRateLimiter({ limit: 5, now: clock.now, maxCredentials: 3 });
    for (const credential of ['a', 'b', 'c', 'd']) limiter.take(credential);
    expect(limiter.size).toBe(3);
    clock.advance(60_000);
    limiter.take('e');
    expect(limiter.size).toBe(1);
  });
});
