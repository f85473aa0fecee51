import { createDecipheriv } from 'node:crypto';
import {
  fromBase64Url,
  openShare,
  parseShareLink,
  ShareKeyError,
  sealShare,
  shareLink,
  toBase64Url,
} from '@client/share-link';

/**
 * A value sealed once with Node's own crypto, not with sealShare: AES-256-GCM under the key of bytes
 * 0..31, nonce 00..0b first, the tag last, all base64url without padding. Opening it proves that the
 * format is the documented one, whatever sealShare's randomness does.
 */
const KNOWN = {
  key: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8',
  ciphertext: 'AAECAwQFBgcICQoLDGy5bKvFo3X-NvL5i8kIriel9EMzzS0YGJd6EYxjbNtvdY6I2K46lDYPwCmDxm1m2xXfAS6b',
  value: 'Known answer: pässwörd 🔑\nline two',
};

/** What a promise rejects with. */
const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

describe('sealShare and openShare', () => {
  it.each([
    ['a plain value', 'hunter2'],
    ['several lines, with a trailing line break', 'line one\nline two\r\nline three\n'],
    ['unicode beyond the basic plane', 'pässwörd — 密码 🔑🗝️'],
  ])('round-trips %s exactly', async (_label, value) => {
    const { ciphertext, key } = await sealShare(value);
    expect(await openShare(ciphertext, key)).toBe(value);
  });

  it('seals under a new key and nonce every time, with a 43-character key', async () => {
    const [one, two] = await Promise.all([sealShare('same'), sealShare('same')]);
    expect(one.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(one.key).not.toBe(two.key);
    expect(one.ciphertext.slice(0, 16)).not.toBe(two.ciphertext.slice(0, 16));
  });

  it('opens the known-answer vector made with Node’s crypto', async () => {
    expect(await openShare(KNOWN.ciphertext, KNOWN.key)).toBe(KNOWN.value);
  });

  it('seals what Node’s crypto opens: a 12-byte nonce, then the ciphertext, then the 16-byte tag', async () => {
    const value = 'opened elsewhere ✓';
    const { ciphertext, key } = await sealShare(value);
    const whole = Buffer.from(ciphertext, 'base64url');
    expect(whole.length).toBe(12 + Buffer.byteLength(value) + 16);
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), whole.subarray(0, 12));
    decipher.setAuthTag(whole.subarray(whole.length - 16));
    const opened = Buffer.concat([decipher.update(whole.subarray(12, whole.length - 16)), decipher.final()]);
    expect(opened.toString('utf8')).toBe(value);
  });

  it('throws a ShareKeyError for another share’s key', async () => {
    const { key } = await sealShare('another');
    const error = await rejection(openShare(KNOWN.ciphertext, key));
    expect(error).toBeInstanceOf(ShareKeyError);
    expect(error).toMatchObject({ name: 'ShareKeyError', message: expect.stringMatching(/does not open this share/) });
  });

  it.each([
    ['cut short by one character', KNOWN.key.slice(0, -1)],
    ['with a character that is not base64url', `${KNOWN.key.slice(0, -1)}+`],
    ['empty', ''],
  ])('throws a ShareKeyError for a key %s', async (_label, key) => {
    const error = await rejection(openShare(KNOWN.ciphertext, key));
    expect(error).toBeInstanceOf(ShareKeyError);
    expect((error as Error).message).toMatch(/not a share key/);
  });

  it.each([
    ['without its last character (the tag cut)', KNOWN.ciphertext.slice(0, -1)],
    ['without its tag', toBase64Url(Buffer.from(KNOWN.ciphertext, 'base64url').subarray(0, -16))],
    ['shorter than a nonce and a tag', KNOWN.ciphertext.slice(0, 30)],
    ['empty', ''],
  ])('throws a ShareKeyError for a ciphertext %s', async (_label, ciphertext) => {
    expect(await rejection(openShare(ciphertext, KNOWN.key))).toBeInstanceOf(ShareKeyError);
  });

  it('throws a ShareKeyError for a ciphertext with one bit flipped', async () => {
    const whole = Buffer.from(KNOWN.ciphertext, 'base64url');
    whole[20] = (whole[20] ?? 0) ^ 1;
    expect(await rejection(openShare(toBase64Url(whole), KNOWN.key))).toBeInstanceOf(ShareKeyError);
  });
});

describe('base64url', () => {
  it('round-trips every byte and length, without padding', () => {
    for (let length = 0; length < 40; length++) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 37 + length) % 256);
      const text = toBase64Url(bytes);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64Url(text)).toEqual(bytes);
    }
  });

  it.each(['a+b', 'a/b', 'abcde', 'ab=c'])('answers undefined for %p', (text) => {
    expect(fromBase64Url(text)).toBeUndefined();
  });
});

describe('shareLink and parseShareLink', () => {
  const ID = 'shr_0123456789abcdefABCDEF';

  it('puts the id in the path under /s/ and the key in the fragment only', () => {
    const link = shareLink('https://secrets.example.com/', ID, KNOWN.key);
    expect(link).toBe(`https://secrets.example.com/s/${ID}#${KNOWN.key}`);
    expect(new URL(link).pathname).toBe(`/s/${ID}`);
    expect(new URL(link).search).toBe('');
  });

  it('keeps a dashboard served under a path', () => {
    expect(shareLink('https://example.com/dashboard//', ID, KNOWN.key)).toBe(
      `https://example.com/dashboard/s/${ID}#${KNOWN.key}`,
    );
  });

  it.each([
    ['a link it made', shareLink('http://127.0.0.1:3000', ID, KNOWN.key)],
    ['a dashboard under a path', `https://example.com/app/s/${ID}#${KNOWN.key}`],
    ['spaces around it, as pasted', `  https://example.com/s/${ID}#${KNOWN.key}\n`],
  ])('reads the id and key of %s', (_label, link) => {
    expect(parseShareLink(link)).toEqual({ id: ID, key: KNOWN.key });
  });

  it.each([
    ['no fragment', `https://example.com/s/${ID}`],
    ['an empty fragment', `https://example.com/s/${ID}#`],
  ])('reads the id and no key of a link with %s', (_label, link) => {
    expect(parseShareLink(link)).toEqual({ id: ID, key: undefined });
  });

  it.each([
    ['a bare id', ID],
    ['a bare id and key', `${ID}#${KNOWN.key}`],
    ['another page of the dashboard', `https://example.com/projects/${ID}#${KNOWN.key}`],
    ['no id after /s/', `https://example.com/s/#${KNOWN.key}`],
    ['more path after the id', `https://example.com/s/${ID}/more#${KNOWN.key}`],
    ['empty text', ''],
  ])('answers undefined for %s', (_label, link) => {
    expect(parseShareLink(link)).toBeUndefined();
  });
});
