import { IV_BYTES } from '@lambdas/crypto/aes-gcm';

type RandomModule = typeof import('@lambdas/domain/random');

/** The pool's module loaded afresh (an empty pool), with node:crypto's fills counted. */
const freshPool = (use: (random: RandomModule, fills: jest.SpyInstance) => void): void => {
  const crypto = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  const fills = jest.spyOn(crypto, 'randomFillSync');
  try {
    jest.isolateModules(() => use(jest.requireActual<RandomModule>('@lambdas/domain/random'), fills));
  } finally {
    fills.mockRestore();
  }
};

describe('pooledRandomBytes', () => {
  it('draws nothing at load, then 4 KiB at a time, handing each byte out once', () => {
    freshPool(({ pooledRandomBytes }, fills) => {
      expect(fills).not.toHaveBeenCalled();
      const ivs = Array.from({ length: 700 }, () => pooledRandomBytes(IV_BYTES));
      // 341 IVs of 12 bytes fit in 4,096: 700 take three fills.
      expect(fills).toHaveBeenCalledTimes(3);
      expect(new Set(ivs.map((iv) => iv.toString('hex'))).size).toBe(ivs.length);
    });
  });

  it('answers a copy, which a later fill of the pool leaves as it was, and keeps no byte it handed out', () => {
    freshPool(({ pooledRandomBytes }, fills) => {
      const first = pooledRandomBytes(16);
      const kept = Buffer.from(first);
      const pool = fills.mock.calls[0]?.[0] as Buffer;
      expect(pool.subarray(0, 16).equals(Buffer.alloc(16))).toBe(true);
      for (let i = 0; i < 600; i += 1) pooledRandomBytes(16);
      expect(first.equals(kept)).toBe(true);
    });
  });

  it('draws more than the pool holds on its own, leaving the pool as it was', () => {
    freshPool(({ pooledRandomBytes }, fills) => {
      pooledRandomBytes(16);
      expect(pooledRandomBytes(5000)).toHaveLength(5000);
      expect(fills).toHaveBeenCalledTimes(2);
      for (let i = 0; i < 255; i += 1) pooledRandomBytes(16);
      expect(fills).toHaveBeenCalledTimes(2);
    });
  });
});
