import { hash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import {
  BASE62,
  DISPLAY_PREFIX_LENGTH,
  TOKEN_CHECKSUM_LENGTH,
  TOKEN_ID_LENGTH,
  TOKEN_LENGTH,
  TOKEN_PATTERN,
  TOKEN_PREFIX,
  TOKEN_SECRET_LENGTH,
} from '@contract/identifiers';
import { pooledRandomBytes } from './random';

/**
 * API token format (contract/identifiers.ts): `svc_live_` + public id (12) + secret (24) + checksum
 * (6), all base62. The id addresses the stored item; the secret is only ever stored as a hash; the
 * CRC32 checksum lets the authorizer reject typos and guesses without a database call.
 */
const ID_LENGTH = TOKEN_ID_LENGTH;
const SECRET_LENGTH = TOKEN_SECRET_LENGTH;
const CHECKSUM_LENGTH = TOKEN_CHECKSUM_LENGTH;

/**
 * Uniformly random base62 text from the cryptographic RNG (`pooledRandomBytes`): a byte of 248 or more
 * (4 × 62) is rejected rather than folded in, so no character is likelier than another.
 */
export const randomBase62 = (length: number): string => {
  let out = '';
  while (out.length < length) {
    // The bytes still missing and 16 more: with 8 of 256 values rejected, a token needs a second draw
    // about once in 10^13.
    for (const byte of pooledRandomBytes(length - out.length + 16)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
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

/** Constant-time comparison of a presented token with a stored hash. */
export const tokenMatchesHash = (rawToken: string, storedHash: string): boolean => {
  const presented = hash('sha256', rawToken, 'buffer');
  const stored = Buffer.from(storedHash, 'base64url');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
};
