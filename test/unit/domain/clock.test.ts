import { clock, setClock, toIso } from '@lambdas/domain/clock';

afterEach(() => setClock());

describe('the clock', () => {
  it('reads the clock it is set to, and the system clock again once set back', () => {
    const held = new Date('2031-02-03T04:05:06.789Z');
    setClock({ now: () => held });
    expect(toIso(clock.now())).toBe('2031-02-03T04:05:06.789Z');
    setClock();
    const before = Date.now();
    const now = clock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
