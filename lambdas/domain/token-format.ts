import { hash, randomFillSync, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  BASE62,
  DISPLAY_PREFIX_LENGTH,
  TOKEN_CHECKSUM_LENGTH,
  TOKEN_ID_LENGTH,
  TOKEN_ID_PATTERN,
  TOKEN_LENGTH,
  TOKEN_PATTERN,
  TOKEN_PREFIX,
  TOKEN_SECRET_LENGTH,
} from '@contract/identifiers';

/**
 * API token format (contract/identifiers.ts): `svc_live_` + public id (12) + secret (24) + checksum
 * (6), all base62. The id addresses the stored item; the secret is only ever stored as a hash; the
 * CRC32 checksum lets the authorizer reject typos and guesses without a database call.
 */
const ID_LENGTH = TOKEN_ID_LENGTH;
const SECRET_LENGTH = TOKEN_SECRET_LENGTH;
const CHECKSUM_LENGTH = TOKEN_CHECKSUM_LENGTH;

/**
 * Bytes from the cryptographic RNG, drawn 2 KiB at a time, as Node draws them for `randomUUID`: a
 * draw costs about 25 µs of a warm create-token in place (its C++ job, and the collection of it),
 * whatever its size (`npm run bench`, warm CPU). The bytes ahead are no more exposed than the
 * RNG's own state, held in the same memory; a byte is zeroed once used. The pool fills on the first
 * draw, never at load, so a snapshot of an initialised function would hold none of it.
 */
const POOL_BYTES = 2048;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

const randomByte = (): number => {
  if (used === POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const byte = pool[used] ?? 0;
  pool[used] = 0;
  used += 1;
  return byte;
};

/** Uniformly random base62 text from the cryptographic RNG (rejection sampling, no modulo bias). */
export const randomBase62 = (length: number): string => {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
};

const checksumOf = (text: string): string => {
  let value = crc32(text);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i += 1) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
};

/** `body` with its checksum appended: the last step of minting a token. */
export const withChecksum = (body: string): string => `${body}${checksumOf(body)}`;

/** A freshly minted token: the raw text goes to the caller once; only `hash` is stored. */
export interface MintedToken {
  readonly tokenId: string;
  readonly rawToken: string;
  readonly hash: string;
  readonly displayPrefix: string;
}

/** Hash stored for a raw token (SHA-256; the secret's entropy makes a slow hash unnecessary). */
export const hashToken = (rawToken: string): string => hash('sha256', rawToken, 'base64url');

/** Mints a new token. */
export const mintToken = (): MintedToken => {
  const random = randomBase62(ID_LENGTH + SECRET_LENGTH);
  const tokenId = random.slice(0, ID_LENGTH);
  const body = `${TOKEN_PREFIX}${random}`;
  const rawToken = withChecksum(body);
  return { tokenId, rawToken, hash: hashToken(rawToken), displayPrefix: rawToken.slice(0, DISPLAY_PREFIX_LENGTH) };
};

/** The id of a well-formed token (prefix, length, alphabet and checksum all right), else `null`. */
export const parseToken = (candidate: string): { tokenId: string } | null => {
  if (candidate.length !== TOKEN_LENGTH || !TOKEN_PATTERN.test(candidate)) return null;
  const body = candidate.slice(0, -CHECKSUM_LENGTH);
  if (checksumOf(body) !== candidate.slice(-CHECKSUM_LENGTH)) return null;
  return { tokenId: candidate.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + ID_LENGTH) };
};

/** Whether a string has the form of a token id (checked before any lookup by id). */
export const isTokenId = (candidate: string): boolean => TOKEN_ID_PATTERN.test(candidate);

/** Constant-time comparison of a presented token with a stored hash. */
export const tokenMatchesHash = (rawToken: string, storedHash: string): boolean => {
  const presented = hash('sha256', rawToken, 'buffer');
  const stored = Buffer.from(storedHash, 'base64url');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
};
