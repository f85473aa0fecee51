import { TOKEN_LENGTH } from '@contract/identifiers';
import { revokeTokenRoute } from '@contract/routes/revoke-token';
import {
  hashToken,
  mintToken,
  parseToken,
  randomBase62,
  tokenMatchesHash,
  withChecksum,
} from '@lambdas/domain/token-format';

describe('mintToken', () => {
  it('mints svc_live_ tokens of fixed length in base62 whose display prefix starts the token', () => {
    const token = mintToken();
    expect(token.rawToken).toMatch(/^svc_live_[0-9A-Za-z]+$/);
    expect(token.rawToken).toHaveLength(TOKEN_LENGTH);
    expect(token.rawToken.startsWith(token.displayPrefix)).toBe(true);
    expect(token.displayPrefix).toHaveLength(16);
    expect(token.rawToken.slice(9, 21)).toBe(token.tokenId);
  });

  it('stores a hash that is not the token and matches only the token', () => {
    const token = mintToken();
    expect(token.hash).not.toContain(token.rawToken.slice(9));
    expect(tokenMatchesHash(token.rawToken, token.hash)).toBe(true);
    expect(tokenMatchesHash(mintToken().rawToken, token.hash)).toBe(false);
    expect(tokenMatchesHash(token.rawToken, 'short')).toBe(false);
  });

  it('never repeats itself', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => mintToken().rawToken));
    expect(seen.size).toBe(2000);
  });
});

describe('randomBase62', () => {
  it('uses the whole alphabet about evenly', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(800);
      expect(count).toBeLessThan(1200);
    }
  });

  it('mints tokens from the pool of random bytes, drawn from the RNG on first use, none at load', () => {
    const crypto = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const fills = jest.spyOn(crypto, 'randomFillSync');
    const draws = jest.spyOn(crypto, 'randomBytes');
    try {
      jest.isolateModules(() => {
        const fresh = jest.requireActual<typeof import('@lambdas/domain/token-format')>('@lambdas/domain/token-format');
        expect(fills).not.toHaveBeenCalled();
        const first = fresh.mintToken();
        expect(fills).toHaveBeenCalledTimes(1);
        expect(fresh.mintToken().rawToken).not.toBe(first.rawToken);
        expect(fills).toHaveBeenCalledTimes(1);
        expect(draws).not.toHaveBeenCalled();
      });
    } finally {
      fills.mockRestore();
      draws.mockRestore();
    }
  });

  it('rejects the bytes that would bias the alphabet and draws again for the characters missing', () => {
    const crypto = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    // The first draw asks 5 + 16 bytes and keeps three; the second the 2 missing + 16; then a marker.
    const bytes = [0, 248, 255, 61, 62, ...Array<number>(16).fill(250), ...Array<number>(18).fill(97), 7];
    const fills = jest.spyOn(crypto, 'randomFillSync').mockImplementationOnce(((buffer: Buffer) => {
      buffer.fill(0).set(bytes);
      return buffer;
    }) as never);
    try {
      jest.isolateModules(() => {
        const fresh = jest.requireActual<typeof import('@lambdas/domain/token-format')>('@lambdas/domain/token-format');
        const pool = jest.requireActual<typeof import('@lambdas/domain/random')>('@lambdas/domain/random');
        expect(fresh.randomBase62(5)).toBe('0z0ZZ');
        expect([...pool.pooledRandomBytes(1)]).toEqual([7]);
        expect(fills).toHaveBeenCalledTimes(1);
      });
    } finally {
      fills.mockRestore();
    }
  });
});

describe('parseToken', () => {
  const { rawToken, tokenId } = mintToken();

  it('accepts a minted token and returns its id', () => {
    expect(parseToken(rawToken)).toEqual({ tokenId });
  });

  it('rejects every single-character change (the checksum catches typos)', () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    for (let i = 9; i < rawToken.length; i += 1) {
      const current = rawToken[i] ?? '';
      const replacement = alphabet[(alphabet.indexOf(current) + 1) % alphabet.length];
      expect(parseToken(`${rawToken.slice(0, i)}${replacement}${rawToken.slice(i + 1)}`)).toBeNull();
    }
  });

  // Each has a valid checksum (withChecksum), so only the prefix, length and alphabet checks refuse it.
  const body = rawToken.slice(9, 45);
  it.each([
    ['another prefix', withChecksum(`svc_test_${body}`)],
    ['an upper-case prefix', withChecksum(`SVC_LIVE_${body}`)],
    ['no prefix', withChecksum(`svc_live${body}`)],
    ['one character short', withChecksum(`svc_live_${body.slice(1)}`)],
    ['one character long', withChecksum(`svc_live_${body}A`)],
    ['a non-base62 character', withChecksum(`svc_live_${body.slice(1)}-`)],
    ['a 10 KB body', withChecksum(`svc_live_${'A'.repeat(10_240)}`)],
  ])('rejects %s even with a valid checksum', (_label, candidate) => {
    expect(parseToken(candidate)).toBeNull();
  });

  it('accepts a token of a known checksum: tokens minted by earlier versions stay valid', () => {
    // CRC32 of the body, 548618211, written as six base62 digits, most significant first.
    const known = 'svc_live_AbCdEf1234560123456789abcdefghijKLMN0b7wep';
    expect(withChecksum(known.slice(0, -6))).toBe(known);
    expect(parseToken(known)).toEqual({ tokenId: 'AbCdEf123456' });
  });

  it('checks the checksum over the whole body', () => {
    expect(parseToken(withChecksum(rawToken.slice(0, -6)))).toEqual({ tokenId });
    expect(withChecksum(rawToken.slice(0, -6))).toBe(rawToken);
  });

  it.each([
    ['another prefix', rawToken.replace('svc_live_', 'svc_test_')],
    ['an upper-case prefix', rawToken.replace('svc_live_', 'SVC_LIVE_')],
    ['a missing character', rawToken.slice(0, -1)],
    ['an extra character', `${rawToken}A`],
    ['a trailing newline', `${rawToken}\n`],
    ['inner whitespace', `${rawToken.slice(0, 20)} ${rawToken.slice(21)}`],
    ['a non-base62 character', `${rawToken.slice(0, 20)}-${rawToken.slice(21)}`],
    ['a look-alike letter', `${rawToken.slice(0, 20)}\u0410${rawToken.slice(21)}`],
    ['a 10 KB token', `svc_live_${'A'.repeat(10_240)}`],
    ['the empty string', ''],
  ])('rejects %s', (_label, candidate) => {
    expect(parseToken(candidate)).toBeNull();
  });
});

describe('a token id in the revoke path', () => {
  it('accepts 12 base62 characters only', () => {
    const isTokenId = (id: string) => revokeTokenRoute.schemas().params.safeParse({ id }).success;
    expect(isTokenId('AbCdEf123456')).toBe(true);
    expect(isTokenId('AbCdEf12345')).toBe(false);
    expect(isTokenId('AbCdEf12345-')).toBe(false);
  });
});

describe('hashToken', () => {
  it('is deterministic and URL-safe', () => {
    expect(hashToken('x')).toBe(hashToken('x'));
    expect(hashToken('x')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
