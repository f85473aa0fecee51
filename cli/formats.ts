import { parse as parseDotenv } from 'dotenv';
import { stringify as stringifyYaml } from 'yaml';
import { CommandError } from './errors';

/** The formats `secrets export` writes. */
export const EXPORT_FORMATS = ['dotenv', 'json', 'yaml', 'shell'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Whether a POSIX shell sourcing the file reads `value` exactly from a dotenv line: in single quotes
 * when it holds no `'`, else in double quotes when it holds none of `$`, backtick, `\` and `"`, the
 * only characters a shell acts on there. A value with a `'` and one of those has no such quoting.
 */
const shellReadsExactly = (value: string): boolean => !value.includes("'") || /^[^$`\\"]*$/.test(value);

/**
 * What a dotenv line holds for `value`: the value itself, unless dotenv-expand would expand something in
 * it (a `$` before `{` or a name's first character) or read a `\$` of it as `$`; then every `$` written
 * as `\$`, which dotenv-expand reads back as the value and expands nothing at, and which dotenv and a
 * shell read with the backslashes. No quoting holds both readings: dotenv-expand reads what dotenv does.
 */
const dotenvText = (value: string): string =>
  /\$[{A-Za-z_]/.test(value) || value.includes('\\$') ? value.replace(/\$/g, () => '\\$') : value;

const namesWhere = (values: Readonly<Record<string, string>>, holds: (value: string) => boolean): string[] =>
  Object.keys(values)
    .filter((name) => holds(values[name] ?? ''))
    .sort();

/** The secrets of `values` that a dotenv export gives to dotenv readers only (a shell sourcing it leaves them unset). */
export const dotenvOnlyNames = (values: Readonly<Record<string, string>>): string[] =>
  namesWhere(values, (value) => !shellReadsExactly(dotenvText(value)));

/** The secrets of `values` that a dotenv export writes with each `$` as `\$`, for dotenv-expand (`dotenvText`). */
export const dollarEscapedNames = (values: Readonly<Record<string, string>>): string[] =>
  namesWhere(values, (value) => dotenvText(value) !== value);

const cannotWrite = (name: string) =>
  new CommandError(
    `the value of ${name} cannot be written so that dotenv reads it back exactly (a carriage return, or quotes and escapes no .env quoting holds): use --format json, yaml or shell`,
  );

/**
 * One `.env` line from which `dotenv.parse` reads `text` (a value's `dotenvText`) back exactly: the
 * quoting a shell reads literally when there is one, else (a line only dotenv sees) double quotes or
 * backticks, which dotenv reads literally too but for `\n` and `\r` in double quotes; each is checked
 * with the parser itself, and a text none holds (a carriage return, which dotenv reads as a line break)
 * is refused rather than bent.
 */
const dotenvLine = (name: string, text: string): string => {
  const candidates = shellReadsExactly(text)
    ? [text.includes("'") ? `"${text}"` : `'${text}'`]
    : [`"${text}"`, `\`${text}\``];
  const line = candidates.map((quoted) => `${name}=${quoted}`).find((line) => parseDotenv(line)[name] === text);
  if (line === undefined) throw cannotWrite(name);
  return line;
};

/**
 * A `.env` file no POSIX shell can be made to run or expand anything from, nor dotenv-expand expand
 * anything in, and that dotenv reads back exactly (each value's `dotenvText`). A shell reads every line
 * it sees literally; the lines only dotenv can read exactly (texts with a `'` and a `$`, backtick, `\`
 * or `"`) sit in a here-document with a quoted delimiter after `:`, which a shell skips unread and
 * dotenv, seeing no `NAME=` on those two lines, reads through. The delimiter is chosen to be no line of
 * any text, so no value can end the here-document early.
 */
const dotenvFile = (entries: readonly (readonly [string, string])[]): string => {
  const texts = entries.map(([name, value]) => [name, dotenvText(value)] as const);
  const hidden = new Set(dotenvOnlyNames(Object.fromEntries(entries)));
  const lines = (shown: boolean) =>
    texts.filter(([name]) => hidden.has(name) !== shown).map(([name, text]) => `${dotenvLine(name, text)}\n`);
  let file = lines(true).join('');
  if (hidden.size > 0) {
    const textLines = new Set(texts.flatMap(([, text]) => text.split('\n')));
    let delimiter = 'SECRETS_DOTENV_ONLY';
    while (textLines.has(delimiter)) delimiter += '_';
    file += `:<<'${delimiter}'\n${lines(false).join('')}${delimiter}\n`;
  }
  const read = parseDotenv(file);
  const misread = texts.find(([name, text]) => read[name] !== text);
  if (misread) throw cannotWrite(misread[0]);
  return file;
};

/** A value in single quotes for a POSIX shell: `'` is written as `'\''`. */
const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** The values in `format`, by name in order, ending in a newline. */
export const formatExport = (values: Readonly<Record<string, string>>, format: ExportFormat): string => {
  const sorted = Object.fromEntries(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const entries = Object.entries(sorted);
  switch (format) {
    case 'json':
      return `${JSON.stringify(sorted, null, 2)}\n`;
    case 'yaml':
      return entries.length === 0 ? '{}\n' : stringifyYaml(sorted);
    case 'shell':
      return entries.map(([name, value]) => `export ${name}=${shellQuote(value)}\n`).join('');
    case 'dotenv':
      return dotenvFile(entries);
  }
};
