import { isShareKey } from '@client/index';
import { MAX_SECRET_VALUE_BYTES } from '@contract/limits';

/** One recipient as typed: the address the API gets, and its line in the field (from 1). */
export interface RecipientLine {
  readonly email: string;
  readonly line: number;
}

/** The typed recipients as the API takes them (each line trimmed, blank lines dropped), each with its line. */
export const recipientLines = (text: string): RecipientLine[] =>
  text
    .split('\n')
    .map((line, index) => ({ email: line.trim(), line: index + 1 }))
    .filter(({ email }) => email !== '');

/**
 * Why a value cannot be shared, before anything is sealed or sent: none typed, or more than a secret
 * may hold (the ciphertext limit is made for the largest secret value, sealed).
 */
export const valueProblem = (value: string): string | undefined => {
  if (value === '') return 'Type the secret to share';
  const bytes = new TextEncoder().encode(value).length;
  return bytes > MAX_SECRET_VALUE_BYTES
    ? `A shared secret has at most ${MAX_SECRET_VALUE_BYTES.toLocaleString('en')} bytes; this one has ${bytes.toLocaleString('en')}`
    : undefined;
};

/**
 * What is wrong with a link's key before revealing, so that a link cut short spends no view: none
 * (the fragment was left out), or not a whole key. A whole key that is not this share's shows only
 * when it fails to open the ciphertext.
 */
export const keyProblem = (key: string | undefined): string | undefined => {
  if (key === undefined || key === '') return 'This link has no key: ask for the whole link.';
  return isShareKey(key) ? undefined : 'This link’s key is cut short or changed: ask for the whole link.';
};

/** How many views a share has left, as a sentence: `3 views left.`, `1 view left.` */
export const viewsLeftText = (viewsLeft: number): string => `${viewsLeft} ${viewsLeft === 1 ? 'view' : 'views'} left.`;

/** The same after a reveal, when none left means this was the last. */
export const viewsLeftAfterReveal = (viewsLeft: number): string =>
  viewsLeft === 0 ? 'This was the last view.' : viewsLeftText(viewsLeft);

/** Why a link reveals nothing, in the one 404 every refusal answers. */
export const SHARE_GONE = 'This share does not exist, was already revealed, expired or is not for you.';

/** Bidirectional formatting characters: each reorders what follows it (U+202E shows `fdp.exe` as `exe.pdf`). */
const BIDI_CONTROLS = /\p{Bidi_Control}/gu;

/**
 * A revealed value as shown: each bidirectional formatting character written out as `⟨U+202E⟩`, so
 * that none reverses or reorders what the reader sees; Copy copies the value as it is.
 */
export const withVisibleControls = (value: string): string =>
  value.replace(
    BIDI_CONTROLS,
    (control) => `⟨U+${(control.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
