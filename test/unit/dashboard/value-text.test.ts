import { valueParts } from '../../../dashboard/src/value-text';

describe('valueParts', () => {
  it('keeps plain text, line breaks and tabs as they are', () => {
    expect(valueParts('Hello\n\tWorld')).toEqual([{ text: 'Hello\n\tWorld' }]);
  });

  it('names a right-to-left override by its code point, so the value is not shown reversed', () => {
    expect(valueParts('abc\u202Efdp.exe')).toEqual([{ text: 'abc' }, { control: 'U+202E' }, { text: 'fdp.exe' }]);
  });

  it('names invisible format characters and tag characters, whole code points', () => {
    expect(valueParts('a\u200Bb\u00AD\uFEFF\u{E0041}')).toEqual([
      { text: 'a' },
      { control: 'U+200B' },
      { text: 'b' },
      { control: 'U+00AD' },
      { control: 'U+FEFF' },
      { control: 'U+E0041' },
    ]);
  });

  it('names a control character other than a line break or a tab', () => {
    expect(valueParts('a\rb\u0000')).toEqual([
      { text: 'a' },
      { control: 'U+000D' },
      { text: 'b' },
      { control: 'U+0000' },
    ]);
  });

  it('keeps right-to-left text itself: only the invisible controls are named', () => {
    expect(valueParts('שלום')).toEqual([{ text: 'שלום' }]);
  });
});
