import { IV_BYTES } from '@lambdas/crypto/aes-gcm';

type RandomModule = typeof import('@lambdas/domain/random');
type TokenFormat = typeof import('@lambdas/domain/token-format');

/** The modules loaded afresh (an empty pool), with node:crypto's draws counted. */
const freshWithDraws = <T>(
  use: (random: RandomModule, tokens: TokenFormat, fills: jest.SpyInstance, draws: jest.SpyInstance) => T,
): T => {
  const crypto = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  const fills = jest.spyOn(crypto, 'randomFillSync');
  const draws = jest.spyOn(crypto, 'randomBytes');
  try {
    let result: T | undefined;
    jest.isolateModules(() => {
      result = use(
        jest.requireActual<RandomModule>('@lambdas/domain/random'),
        jest.requireActual<TokenFormat>('@lambdas/domain/token-format'),
        fills,
        draws,
      );
    });
    return result as T;
  } finally {
    fills.mockRestore();
    draws.mockRestore();
  }
};

describe('publicRandomBytes', () => {
  it('draws nothing at load, then 4 KiB at a time, handing each byte out once', () => {
    freshWithDraws(({ publicRandomBytes }, _tokens, fills) => {
      expect(fills).not.toHaveBeenCalled();
      const ivs = Array.from({ length: 700 }, () => publicRandomBytes(IV_BYTES));
      // 341 IVs of 12 bytes fit in 4,096: 700 take three fills.
      expect(fills).toHaveBeenCalledTimes(3);
      expect(new Set(ivs.map((iv) => iv.toString('hex'))).size).toBe(ivs.length);
    });
  });

  it('answers a copy, which a later fill of the pool leaves as it was', () => {
    freshWithDraws(({ publicRandomBytes }) => {
      const first = publicRandomBytes(16);
      const kept = Buffer.from(first);
      for (let i = 0; i < 600; i += 1) publicRandomBytes(16);
      expect(first.equals(kept)).toBe(true);
    });
  });

  it('refuses more than the pool holds', () => {
    freshWithDraws(({ publicRandomBytes }) => {
      expect(() => publicRandomBytes(4097)).toThrow(RangeError);
    });
  });
});

describe('randomIdText', () => {
  it('takes an id from the pool and a token secret from a draw of its own', () => {
    freshWithDraws((_random, { mintToken, randomIdText }, fills, draws) => {
      const ids = Array.from({ length: 200 }, () => randomIdText(20));
      expect(ids.every((id) => /^[0-9A-Za-z]{20}$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect(draws).not.toHaveBeenCalled();
      const fillsBefore = fills.mock.calls.length;
      mintToken();
      expect(draws).toHaveBeenCalledTimes(1);
      expect(fills).toHaveBeenCalledTimes(fillsBefore);
    });
  });
});
