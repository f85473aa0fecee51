/**
 * The end-to-end encryption of shares, the same in the dashboard and the `secrets` command: the
 * client seals a value with AES-256-GCM (Web Crypto) under a random 256-bit key, the service stores
 * only the sealed bytes, and the key travels in the link's fragment (`<dashboard>/s/<id>#<key>`),
 * which browsers never send to any server. Written here because no library does this exact format,
 * which both clients must read alike.
 */

/** Bytes of the random nonce that starts every ciphertext. */
const NONCE_BYTES = 12;
/** Bytes of a share's key (AES-256). */
const KEY_BYTES = 32;
/** The characters of a key in a link: 32 bytes in base64url without padding. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** The path of a share's link page under the dashboard, before the share's id. */
export const SHARE_PATH_PREFIX = '/s/';

const subtle = () => {
  const crypto = globalThis.crypto?.subtle;
  if (!crypto) throw new Error('This client has no Web Crypto: shares need a secure context (HTTPS or localhost)');
  return crypto;
};

/** Bytes as base64url without padding. */
export const toBase64Url = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** The bytes of base64url text (padding optional); undefined when it is not base64url. */
export const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(
    text
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(text.length / 4) * 4, '='),
  );
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
};

/** Whether `key` has a share key's form (32 bytes, 43 base64url characters); only such a key can open a share. */
export const isShareKey = (key: string): boolean => KEY_PATTERN.test(key);

/** A sealed value: the ciphertext to send the service, and the key to put in the link only. */
export interface SealedShare {
  readonly ciphertext: string;
  readonly key: string;
}

/** Seals `value` under a new random key: nonce, then AES-256-GCM ciphertext and tag, in base64url. */
export const sealShare = async (value: string): Promise<SealedShare> => {
  const keyBytes = globalThis.crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  const nonce = globalThis.crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const key = await subtle().importKey('raw', keyBytes, 'AES-GCM', false, ['encrypt']);
  const sealed = new Uint8Array(
    await subtle().encrypt({ name: 'AES-GCM', iv: nonce }, key, new TextEncoder().encode(value)),
  );
  const whole = new Uint8Array(NONCE_BYTES + sealed.length);
  whole.set(nonce);
  whole.set(sealed, NONCE_BYTES);
  return { ciphertext: toBase64Url(whole), key: toBase64Url(keyBytes) };
};

/** Why a share could not be opened. */
export class ShareKeyError extends Error {
  override readonly name = 'ShareKeyError';
}

/**
 * The value sealed in `ciphertext` under `key`; a `ShareKeyError` when the key is not a share's key or
 * does not open this ciphertext (a link cut short, or another share's key).
 */
export const openShare = async (ciphertext: string, key: string): Promise<string> => {
  const keyBytes = isShareKey(key) ? fromBase64Url(key) : undefined;
  if (!keyBytes) throw new ShareKeyError('The link’s key is not a share key: copy the whole link');
  const whole = fromBase64Url(ciphertext);
  if (!whole || whole.length < NONCE_BYTES + 16) throw new ShareKeyError('The share holds no sealed value');
  const cryptoKey = await subtle().importKey('raw', keyBytes, 'AES-GCM', false, ['decrypt']);
  try {
    const opened = await subtle().decrypt(
      { name: 'AES-GCM', iv: whole.subarray(0, NONCE_BYTES) },
      cryptoKey,
      whole.subarray(NONCE_BYTES),
    );
    return new TextDecoder('utf-8', { fatal: true }).decode(opened);
  } catch {
    throw new ShareKeyError('The link’s key does not open this share: copy the whole link');
  }
};

/** The link to a share: the dashboard's link page for its id, with the key in the fragment only. */
export const shareLink = (dashboardUrl: string, id: string, key: string): string =>
  `${dashboardUrl.replace(/\/+$/, '')}${SHARE_PATH_PREFIX}${encodeURIComponent(id)}#${key}`;

/** What a share's link holds: the share's id, and its key (undefined when the fragment is missing or empty). */
export interface ParsedShareLink {
  readonly id: string;
  readonly key: string | undefined;
}

/** The id and key of a share's link, or undefined when it is no such link. */
export const parseShareLink = (link: string): ParsedShareLink | undefined => {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return undefined;
  }
  const at = url.pathname.lastIndexOf(SHARE_PATH_PREFIX);
  if (at < 0) return undefined;
  const id = decodeURIComponent(url.pathname.slice(at + SHARE_PATH_PREFIX.length));
  if (id === '' || id.includes('/')) return undefined;
  const key = url.hash.slice(1);
  return { id, key: key === '' ? undefined : key };
};
