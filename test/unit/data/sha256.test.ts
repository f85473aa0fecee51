import { createHash, createHmac } from 'node:crypto';
import { Sha256 } from '@lambdas/data/sha256';
import fc from 'fast-check';

/** Bytes as each form the SDK may hand a hash: text, Buffer, a view into a larger buffer, an ArrayBuffer. */
const chunk = fc.oneof(
  fc
    .string({ unit: 'binary' })
    .map((text) => ({ data: text as string | ArrayBuffer | ArrayBufferView, bytes: Buffer.from(text) })),
  fc.uint8Array().map((bytes) => ({ data: Buffer.from(bytes), bytes: Buffer.from(bytes) })),
  fc.uint8Array().map((bytes) => {
    const padded = new Uint8Array(bytes.length + 6);
    padded.set(bytes, 3);
    return { data: new DataView(padded.buffer, 3, bytes.length), bytes: Buffer.from(bytes) };
  }),
  fc.uint8Array().map((bytes) => ({ data: Uint8Array.from(bytes).buffer, bytes: Buffer.from(bytes) })),
);

const digestOf = async (hash: Sha256) => Buffer.from(await hash.digest()).toString('hex');

describe('Sha256', () => {
  it('digests what Node digests, in one update or many', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(chunk, { maxLength: 5 }), async (chunks) => {
        const hash = new Sha256();
        for (const { data } of chunks) hash.update(data);
        const expected = createHash('sha256');
        for (const { bytes } of chunks) expected.update(bytes);
        expect(await digestOf(hash)).toBe(expected.digest('hex'));
      }),
    );
  });

  it('computes the HMAC Node computes, for keys shorter and longer than a block', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.array(chunk, { maxLength: 4 }), async (key, chunks) => {
        const hash = new Sha256(key);
        for (const { data } of chunks) hash.update(data);
        const expected = createHmac('sha256', key);
        for (const { bytes } of chunks) expected.update(bytes);
        expect(await digestOf(hash)).toBe(expected.digest('hex'));
      }),
    );
  });

  it('reads text in the encoding it is given', async () => {
    const hash = new Sha256();
    hash.update('c2VjcmV0', 'base64' as BufferEncoding);
    expect(await digestOf(hash)).toBe(createHash('sha256').update('secret').digest('hex'));
  });

  it('starts over on reset', async () => {
    const hash = new Sha256('key');
    hash.update('dropped');
    hash.reset();
    hash.update('kept');
    expect(await digestOf(hash)).toBe(createHmac('sha256', 'key').update('kept').digest('hex'));
  });
});
