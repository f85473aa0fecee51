import crypto, { createHash, createHmac, randomBytes } from 'node:crypto';
import { DIGEST_BYTES, digestKeyOf, sameDigest, VALUE_DIGEST_LABEL, valueDigest } from '@lambdas/crypto/value-digest';

const dataKey = Buffer.alloc(32, 7);

afterEach(() => jest.restoreAllMocks());

describe('valueDigest', () => {
  it('is HMAC-SHA256 of the value’s UTF-8 bytes under HKDF-SHA256(data key, no salt, the v1 label): known answers', () => {
    // Computed apart from node:crypto's HKDF, by RFC 5869's two steps in Python's hmac module.
    expect(VALUE_DIGEST_LABEL).toBe('secrets-service/value-digest/v1');
    expect(digestKeyOf(dataKey).toString('hex')).toBe(
      '3c10ecf889f544fd0046077c1c08865e6217d4dceecbf674334335ebd11cc4b5',
    );
    expect(valueDigest(dataKey, 'hello').toString('hex')).toBe(
      '475da3f37dd29efedb4a9f05e7576581dee6cdfcde451927206806805080b343',
    );
    // The value's UTF-8 bytes, as Python's `'ünïcødé 🔑'.encode('utf8')`.
    expect(valueDigest(dataKey, 'ünïcødé 🔑').toString('hex')).toBe(
      'ac4d1eb4fc75053230cbd0b494293b40bdc22939037a04486a7e13e61dada99d',
    );
  });

  it('is the same for the same value and another for another value, empty and non-ASCII values included', () => {
    const values = ['', 'a', 'A', 'a ', 'postgres://app:s3cret@db/app', 'ünïcødé 🔑', 'x'.repeat(65_536)];
    const digests = values.map((value) => valueDigest(dataKey, value).toString('hex'));

    expect(values.map((value) => valueDigest(dataKey, value).toString('hex'))).toEqual(digests);
    expect(new Set(digests).size).toBe(values.length);
    for (const digest of digests) expect(digest).toHaveLength(2 * DIGEST_BYTES);
  });

  it('derives the digest key once per data key a function keeps, not once per value (an HKDF is most of the work)', () => {
    const derive = jest.spyOn(crypto, 'hkdfSync');
    const kept = randomBytes(32);
    const digests = ['a', 'b', 'a'].map((value) => valueDigest(kept, value).toString('hex'));

    expect(derive).toHaveBeenCalledTimes(1);
    expect(digests[2]).toBe(digests[0]);
    expect(digests[1]).not.toBe(digests[0]);
    valueDigest(randomBytes(32), 'a');
    expect(derive).toHaveBeenCalledTimes(2);
  });

  it('differs under another project’s data key', () => {
    expect(valueDigest(randomBytes(32), 'hello').equals(valueDigest(dataKey, 'hello'))).toBe(false);
  });

  it('cannot be made without the data key: neither a plain hash nor an HMAC under the data key itself', () => {
    const digest = valueDigest(dataKey, 'hello');

    expect(digest.equals(createHash('sha256').update('hello').digest())).toBe(false);
    expect(digest.equals(createHmac('sha256', dataKey).update('hello').digest())).toBe(false);
    expect(digestKeyOf(dataKey).equals(dataKey)).toBe(false);
  });
});

describe('sameDigest', () => {
  it('tells equal digests from different ones', () => {
    expect(sameDigest(valueDigest(dataKey, 'a'), Uint8Array.from(valueDigest(dataKey, 'a')))).toBe(true);
    expect(sameDigest(valueDigest(dataKey, 'a'), valueDigest(dataKey, 'b'))).toBe(false);
  });

  it('finds no digest of another length equal, not even to itself', () => {
    const short = valueDigest(dataKey, 'a').subarray(0, 16);

    expect(sameDigest(short, short)).toBe(false);
    expect(sameDigest(new Uint8Array(0), new Uint8Array(0))).toBe(false);
  });

  it('answers false, without throwing, for a digest compared with one of another length, either way round', () => {
    const digest = valueDigest(dataKey, 'a');
    const short = digest.subarray(0, 16);

    expect(sameDigest(digest, short)).toBe(false);
    expect(sameDigest(short, digest)).toBe(false);
  });
});
