import { MAX_SECRET_VALUE_BYTES } from '@contract/limits';
import { CommandError } from '../../../cli/errors';
import { shareValue } from '../../../cli/share-value';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('shareValue (what secrets share reads from standard input)', () => {
  it.each([
    ['one trailing "\\n", as echo writes it', 'secret\n', 'secret'],
    ['one trailing "\\r\\n"', 'secret\r\n', 'secret'],
    ['only the last of two line breaks', 'secret\n\n', 'secret\n'],
    ['nothing from a value without a trailing line break', 'secret', 'secret'],
    ['nothing inside several lines', 'one\ntwo\r\nthree\n', 'one\ntwo\r\nthree'],
    ['no other whitespace', '  spaced \t\n', '  spaced \t'],
    ['nothing from unicode', 'pässwörd 🔑\n', 'pässwörd 🔑'],
  ])('takes off %s', (_label, input, value) => {
    expect(shareValue(bytes(input))).toBe(value);
  });

  it('keeps a byte order mark, which is part of the value', () => {
    expect(shareValue(bytes('\uFEFFvalue'))).toBe('\uFEFFvalue');
  });

  it.each([
    ['empty input', ''],
    ['a line break alone', '\n'],
    ['"\\r\\n" alone', '\r\n'],
  ])('refuses %s', (_label, input) => {
    expect(() => shareValue(bytes(input))).toThrow(new CommandError('the value is empty: give it on standard input'));
  });

  it('refuses input that is not UTF-8', () => {
    expect(() => shareValue(Uint8Array.from([0x61, 0xff, 0xfe]))).toThrow(/not UTF-8 text/);
  });

  it('takes a value of the largest size a secret has, counted in UTF-8 bytes, and refuses one byte more', () => {
    const largest = `${'é'.repeat(MAX_SECRET_VALUE_BYTES / 2 - 1)}ab`;
    expect(shareValue(bytes(`${largest}\n`))).toBe(largest);
    expect(() => shareValue(bytes(`${largest}c`))).toThrow(
      `the value is ${MAX_SECRET_VALUE_BYTES + 1} bytes; a share holds at most ${MAX_SECRET_VALUE_BYTES}`,
    );
  });
});
