import { MAX_SECRET_VALUE_BYTES } from '@contract/limits';
import { CommandError } from './errors';

/**
 * The value `secrets share` seals, from the bytes of its standard input: UTF-8 text with one trailing
 * line break ("\n" or "\r\n") taken off, since `echo secret | secrets share` means `secret`; `printf %s`
 * keeps every byte. Refused before anything is sent: input that is not UTF-8, an empty value, and one
 * longer than a secret may be (`MAX_SECRET_VALUE_BYTES`).
 */
export const shareValue = (input: Uint8Array): string => {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input);
  } catch {
    throw new CommandError('standard input is not UTF-8 text: a share holds text, as a secret does');
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') throw new CommandError('the value is empty: give it on standard input');
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_SECRET_VALUE_BYTES) {
    throw new CommandError(
      `the value is ${bytes} bytes; a share holds at most ${MAX_SECRET_VALUE_BYTES} (UTF-8): nothing was sent`,
    );
  }
  return value;
};
