import { sealShare } from '@client/index';
import { MAX_SECRET_VALUE_BYTES } from '@contract/limits';
import {
  keyProblem,
  recipientLines,
  valueProblem,
  viewsLeftAfterReveal,
  viewsLeftText,
  withVisibleControls,
} from '../../../dashboard/src/share-text';

describe('recipientLines', () => {
  it('takes each line trimmed, with its line number, and drops blank lines', () => {
    expect(recipientLines(' bob@example.com \n\n  \ncy@example.com')).toEqual([
      { email: 'bob@example.com', line: 1 },
      { email: 'cy@example.com', line: 4 },
    ]);
  });

  it('takes none from an empty field', () => {
    expect(recipientLines('')).toEqual([]);
  });
});

describe('valueProblem', () => {
  it('refuses an empty value: nothing would be shared', () => {
    expect(valueProblem('')).toBe('Type the secret to share');
  });

  it('takes a value up to the largest a secret may hold, counted in UTF-8 bytes', () => {
    expect(valueProblem('x'.repeat(MAX_SECRET_VALUE_BYTES))).toBeUndefined();
    expect(valueProblem('é'.repeat(MAX_SECRET_VALUE_BYTES / 2 + 1))).toBe(
      `A shared secret has at most 65,536 bytes; this one has ${(MAX_SECRET_VALUE_BYTES + 2).toLocaleString('en')}`,
    );
  });
});

describe('keyProblem', () => {
  it('says a link without its fragment has no key', () => {
    expect(keyProblem(undefined)).toBe('This link has no key: ask for the whole link.');
    expect(keyProblem('')).toBe('This link has no key: ask for the whole link.');
  });

  it('takes a whole key, as sealing makes it', async () => {
    const { key } = await sealShare('value');
    expect(keyProblem(key)).toBeUndefined();
  });

  it('says a key cut short or changed is not whole, before any view is spent', async () => {
    const { key } = await sealShare('value');
    for (const broken of [key.slice(0, -1), `${key}A`, `${key.slice(0, -1)}+`, 'not a key']) {
      expect(keyProblem(broken)).toBe('This link’s key is cut short or changed: ask for the whole link.');
    }
  });
});

describe('views left in words', () => {
  it('counts views, one in the singular', () => {
    expect(viewsLeftText(2)).toBe('2 views left.');
    expect(viewsLeftText(1)).toBe('1 view left.');
    expect(viewsLeftAfterReveal(1)).toBe('1 view left.');
  });

  it('says after a reveal that none left means this was the last', () => {
    expect(viewsLeftAfterReveal(0)).toBe('This was the last view.');
  });
});

describe('withVisibleControls', () => {
  it('writes out each bidirectional control, so that none reverses what follows it', () => {
    expect(withVisibleControls('invoice\u202Efdp.exe')).toBe('invoice⟨U+202E⟩fdp.exe');
    expect(withVisibleControls('\u2066a\u2069 \u200Fb\u061C')).toBe('⟨U+2066⟩a⟨U+2069⟩ ⟨U+200F⟩b⟨U+061C⟩');
  });

  it('leaves any other value as it is, joiners and right-to-left letters included', () => {
    for (const value of ['postgres://app:s3cr3t@db/app\nPGSSLMODE=verify-full é', 'שלום', '👩‍💻', '']) {
      expect(withVisibleControls(value)).toBe(value);
    }
  });
});
