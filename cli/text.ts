/** How the command writes text it did not choose (a note, a name, a path) and counts of things. */

/**
 * Characters that move a terminal or hide text (controls, invisible formatting such as bidirectional
 * overrides, line and paragraph separators): anyone's text (a note) is shown with these escaped.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` with every character that could move the terminal or hide text written as its escape, `\u001b`. */
export const printable = (text: string): string =>
  text.replace(UNPRINTABLE, (character) => {
    const code = character.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });

/** A count and its noun: `1 view`, `3 views`. */
export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A word as a POSIX shell reads it back: as it is when it holds nothing the shell would take, else in single quotes. */
export const shellWord = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
