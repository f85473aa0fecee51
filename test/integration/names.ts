/**
 * Names (of a token or a project) a screen or a terminal would show other than as stored: control
 * characters (C0, DEL, C1), line and paragraph separators, the bidirectional marks, embeddings,
 * overrides and isolates that reorder what follows them (U+202E shows `fdp.exe` as `exe.pdf`), half a
 * surrogate pair, and the invisible characters (format characters and the default-ignorable ones) that
 * make two names look alike: a joiner or a variation selector where it joins or varies nothing too.
 */
export const DECEPTIVE_NAMES: readonly string[] = [
  'a\u0000b',
  'bell\u0007',
  'tab\tinside',
  'new\nline',
  'carriage\rreturn',
  '\u001b[31mred',
  'del\u007f',
  'next\u0085line',
  'csi\u009b31m',
  'arabic\u061cmark',
  'ltr\u200emark',
  'rtl\u200fmark',
  'line\u2028separator',
  'paragraph\u2029separator',
  ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e'].map((mark) => `invoice${mark}fdp.exe`),
  ...['\u2066', '\u2067', '\u2068', '\u2069'].map((mark) => `isolate${mark}d`),
  'half\ud800pair',
  'zero\u200bwidth',
  'soft\u00adhyphen',
  'byte\ufefforder',
  'word\u2060joiner',
  'invisible\u2062times',
  'anchor\ufff9annotation',
  'tag\u{e0041}\u{e0042}characters',
  'mongolian\u180evowel',
  'hangul\u3164filler',
  'pay\u200dments',
  'non\u200cjoiner',
  '\u200cleading',
  'trailing 🚀\u200d',
  'variation\ufe0fselector',
  'ideographic\u{e0100}selector',
];

/** Names of other scripts and symbols that must keep working, zero-width joiners and non-joiners included. */
export const PLAIN_NAMES: readonly string[] = [
  'Zahlungen – Prod',
  'プロジェクト',
  'deploy 🚀',
  'می\u200cخواهم',
  'team 👩\u200d💻',
  'hot ❤\ufe0f\u200d🔥',
  'step 1\ufe0f\u20e3',
  'क्\u200dष',
];

/** What a refused name's validation detail must say, in words, with the character it holds. */
export const DECEPTIVE_NAME_MESSAGE =
  /^Must not contain invisible, formatting or control characters.*: U\+[0-9A-F]{4,6} at character \d+$/;
