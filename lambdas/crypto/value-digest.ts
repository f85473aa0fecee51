/**
 * Keyed digests of secret values, the one way one is made: what lets two values of a project be found
 * equal (a compare of two environments) without opening either. HMAC-SHA256 of the value's UTF-8 bytes
 * under a key derived with HKDF-SHA256 from the project's data key, so that only a holder of that data
 * key can make one: a reader of the table cannot test a guess against a stored digest, as they could
 * against a plain hash. The derived key is another key than the data key (its own label), so a digest
 * and a sealed value never share a key.
 *
 * A digest is the same for the same value anywhere in the project (any environment, name, version or
 * copy): that is its purpose. So it tells a reader of the table which stored values of one project are
 * equal, never what they are; values of two projects never compare (two data keys).
 */
import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * The HKDF label (`info`) of the digest key. Another scheme takes another label, and its digests are
 * stored under another attribute: digests of two schemes are never compared.
 */
export const VALUE_DIGEST_LABEL = 'secrets-service/value-digest/v1';

/** Bytes of a digest, and of the key that makes it: SHA-256's. */
export const DIGEST_BYTES = 32;

/** The digest key of a project: HKDF-SHA256 of its data key, no salt (the data key is random), our label. */
export const digestKeyOf = (dataKey: Uint8Array): Buffer =>
  Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), VALUE_DIGEST_LABEL, DIGEST_BYTES));

/**
 * Digest keys by the data key they derive from, derived once per unwrapped key a function keeps rather
 * than once per value (an HKDF is most of a digest's work); each leaves with its data key.
 */
const digestKeys = new WeakMap<Uint8Array, KeyObject>();

const digestKeyFor = (dataKey: Uint8Array): KeyObject => {
  const kept = digestKeys.get(dataKey);
  if (kept !== undefined) return kept;
  const derived = createSecretKey(digestKeyOf(dataKey));
  digestKeys.set(dataKey, derived);
  return derived;
};

/** The keyed digest of `value` in the project whose data key is `dataKey`. */
export const valueDigest = (dataKey: Uint8Array, value: string): Buffer =>
  createHmac('sha256', digestKeyFor(dataKey)).update(value, 'utf8').digest();

/** Whether two stored digests are of the same value (a digest of another length is of no value of ours). */
export const sameDigest = (a: Uint8Array, b: Uint8Array): boolean =>
  a.byteLength === DIGEST_BYTES && b.byteLength === DIGEST_BYTES && timingSafeEqual(a, b);
