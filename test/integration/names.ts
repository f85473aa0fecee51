/**
 * Names (of a token or a project) a screen or a terminal would show other than as stored: control
 * characters (C0, DEL, C1), line and paragraph separators, and the bidirectional marks, embeddings,
 * overrides and isolates that reorder what follows them (U+202E shows `fdp.exe` as `exe.pdf`), and
 * half a surrogate pair.
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
];

/** Names of other scripts and symbols that must keep working, zero-width joiners and non-joiners included. */
export const PLAIN_NAMES: readonly string[] = [
  'Zahlungen – Prod',
  'プロジェクト',
  'deploy 🚀',
  'می\u200cخواهم',
  'team 👩\u200d💻',
];

/** What a refused name's validation detail must say, in words. */
export const DECEPTIVE_NAME_MESSAGE = /control|bidirectional/i;
