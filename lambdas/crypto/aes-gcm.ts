import { createCipheriv, createDecipheriv } from 'node:crypto';
import { DecryptionError } from '@lambdas/domain/errors';
import { pooledRandomBytes } from '@lambdas/domain/random';

/** The first byte of every sealed form: a later format (another cipher, a longer IV) gets another number. */
export const SEALED_FORMAT = 0x01;
/** Bytes of a key: AES-256. */
export const KEY_BYTES = 32;
/**
 * Bytes of the IV, random per seal: GCM's own size, and with a random one a key may seal about 2^32
 * times before a repeated IV becomes likely; a project's values stay far below that.
 */
export const IV_BYTES = 12;
/** Bytes of the authentication tag: GCM's full tag, so a forgery is as hard as GCM allows. */
export const TAG_BYTES = 16;

const HEADER_BYTES = 1 + IV_BYTES;
const CIPHER = 'aes-256-gcm';

/**
 * `plaintext` sealed under `key` with `aad` bound to it, as `0x01 | iv(12) | ciphertext | tag(16)`.
 * The additional data is not stored: whoever opens must name it again.
 */
export const sealBytes = (key: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Buffer => {
  const iv = pooledRandomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const body = cipher.update(plaintext);
  const rest = cipher.final();
  return Buffer.concat([Buffer.of(SEALED_FORMAT), iv, body, rest, cipher.getAuthTag()]);
};

/**
 * The plaintext `sealBytes` sealed under `key` with `aad`. A sealed form of another format, changed in
 * any byte, or sealed under another key or additional data throws a `DecryptionError` whose message is
 * `what` (the caller's description of the item, never a value) and the reason.
 */
export const openBytes = (key: Uint8Array, aad: Uint8Array, sealed: Uint8Array, what: string): Buffer => {
  if (sealed.byteLength < HEADER_BYTES + TAG_BYTES || sealed[0] !== SEALED_FORMAT) {
    throw new DecryptionError(`${what} is not in sealed format ${SEALED_FORMAT}`);
  }
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const decipher = createDecipheriv(CIPHER, key, bytes.subarray(1, HEADER_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  decipher.setAAD(aad);
  const body = decipher.update(bytes.subarray(HEADER_BYTES, bytes.length - TAG_BYTES));
  try {
    // Only `final` checks the tag: nothing deciphered leaves this function before it has.
    return Buffer.concat([body, decipher.final()]);
  } catch (error) {
    body.fill(0);
    throw new DecryptionError(
      `${what} does not decrypt: changed, moved from another item, or sealed under another key`,
      { cause: error },
    );
  }
};
