/**
 * The one rule of free text a person gives a name to (a project, a token): it must show what it holds,
 * so that two names that look alike are the same name. The contract's `name()` schema applies it; the
 * dashboard may ask the same question before it sends a form.
 */

/** A character next to which a joiner or a variation selector does something: visible and outside ASCII. */
const JOINABLE = String.raw`[^\p{ASCII}\p{Z}\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}]`;

/** The variation selectors: FE00–FE0F, and the ideographic ones of plane 14. */
const SELECTOR = String.raw`[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]`;

/**
 * The characters a name may not hold, and where each is refused:
 * - control characters (C0, DEL, C1), line and paragraph separators and half a surrogate pair (no
 *   character at all), anywhere;
 * - a zero-width non-joiner or joiner (U+200C, U+200D) unless it stands between two visible characters
 *   outside ASCII (after an emoji's U+FE0F too): Persian, Devanagari and emoji sequences need them,
 *   while between Latin letters they only hide;
 * - a variation selector unless it follows a visible character outside ASCII (❤️, a CJK variant) or
 *   makes a keycap (`1` U+FE0F U+20E3);
 * - every other format character (general category Cf: U+200B, U+00AD, U+FEFF, U+FFF9, the tag
 *   characters U+E0000–U+E007F, the bidirectional marks, embeddings, overrides and isolates that
 *   reorder what follows them) and every other default-ignorable one (U+3164 HANGUL FILLER, U+180E),
 *   anywhere: they show as nothing, or move what is shown.
 */
const HIDDEN = new RegExp(
  [
    String.raw`[\p{Cc}\p{Zl}\p{Zp}\p{Cs}]`,
    String.raw`(?<!${JOINABLE}|\uFE0F)[\u200C\u200D]`,
    String.raw`[\u200C\u200D](?!${JOINABLE})`,
    `(?<!${JOINABLE})(?<![#*0-9])${SELECTOR}`,
    String.raw`(?<=[#*0-9])${SELECTOR}(?!\u20E3)`,
    String.raw`(?![\u200C\u200D\uFE00-\uFE0F\u{E0100}-\u{E01EF}])[\p{Cf}\p{Default_Ignorable_Code_Point}]`,
  ].join('|'),
  'u',
);

/** The first character of `text` a name may not hold (`HIDDEN`), as `U+XXXX`, and its place from 1 in characters. */
export const firstHiddenCharacter = (
  text: string,
): { readonly codePoint: string; readonly position: number } | undefined => {
  const found = HIDDEN.exec(text);
  if (!found) return undefined;
  const codePoint = text.codePointAt(found.index) ?? 0;
  return {
    codePoint: `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`,
    position: [...text.slice(0, found.index)].length + 1,
  };
};
