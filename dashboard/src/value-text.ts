/** A piece of a value as Reveal shows it: text as it is, or a character that would not show itself. */
export type ValuePart = { readonly text: string } | { readonly control: string };

/**
 * Format characters (bidi overrides and isolates, zero-width and soft hyphen, the byte order mark,
 * interlinear annotations, tag characters: Unicode's `Cf`) and control characters but the line break
 * and the tab: shown by their code points, never applied, so that a value with U+202E is not shown
 * reversed and two values that differ only by an invisible character look different.
 */
const HIDDEN = /[\p{Cf}\p{Cc}]/u;

/** `U+202E`: a code point as people look it up. */
const codePoint = (character: string): string =>
  `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** A value cut into its plain text and its hidden characters, each of those by its code point. */
export const valueParts = (value: string): ValuePart[] => {
  const parts: ValuePart[] = [];
  let text = '';
  for (const character of value) {
    if (character !== '\n' && character !== '\t' && HIDDEN.test(character)) {
      if (text) parts.push({ text });
      text = '';
      parts.push({ control: codePoint(character) });
    } else {
      text += character;
    }
  }
  if (text) parts.push({ text });
  return parts;
};
