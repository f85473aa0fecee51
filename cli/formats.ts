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

/** The secrets of `values` that a dotenv export gives to dotenv readers only (a shell sourcing it leaves them unset). */
export const dotenvOnlyNames = (values: Readonly<Record<string, string>>): string[] =>
  Object.keys(values)
    .filter((name) => !shellReadsExactly(values[name] ?? ''))
    .sort();

const cannotWrite = (name: string) =>
  new CommandError(
    `the value of ${name} cannot be written so that dotenv reads it back exactly (a carriage return, or quotes and escapes no .env quoting holds): use --format json, yaml or shell`,
  );

/**
 * One `.env` line whose value `dotenv.parse` reads back exactly: the quoting a shell reads literally
 * when there is one, else (a line only dotenv sees) double quotes or backticks, which dotenv reads
 * literally too but for `\n` and `\r` in double quotes; each is checked with the parser itself, and a
 * value none holds (a carriage return, which dotenv reads as a line break) is refused rather than bent.
 */
const dotenvLine = (name: string, value: string): string => {
  const candidates = shellReadsExactly(value)
    ? [value.includes("'") ? `"${value}"` : `'${value}'`]
    : [`"${value}"`, `\`${value}\``];
  const line = candidates.map((quoted) => `${name}=${quoted}`).find((text) => parseDotenv(text)[name] === value);
  if (line === undefined) throw cannotWrite(name);
  return line;
};

/**
 * A `.env` file no POSIX shell can be made to run or expand anything from, and that dotenv reads back
 * exactly. A shell reads every line it sees literally; the lines only dotenv can read exactly (values
 * with a `'` and a `$`, backtick, `\` or `"`) sit in a here-document with a quoted delimiter after `:`,
 * which a shell skips unread and dotenv, seeing no `NAME=` on those two lines, reads through. The
 * delimiter is chosen to be no line of any value, so no value can end the here-document early.
 */
const dotenvFile = (entries: readonly (readonly [string, string])[]): string => {
  const values = Object.fromEntries(entries);
  const hidden = new Set(dotenvOnlyNames(values));
  const lines = (shown: boolean) =>
    entries.filter(([name]) => hidden.has(name) !== shown).map(([name, value]) => `${dotenvLine(name, value)}\n`);
  let text = lines(true).join('');
  if (hidden.size > 0) {
    const valueLines = new Set(entries.flatMap(([, value]) => value.split('\n')));
    let delimiter = 'SECRETS_DOTENV_ONLY';
    while (valueLines.has(delimiter)) delimiter += '_';
    text += `:<<'${delimiter}'\n${lines(false).join('')}${delimiter}\n`;
  }
  const read = parseDotenv(text);
  const misread = entries.find(([name, value]) => read[name] !== value);
  if (misread) throw cannotWrite(misread[0]);
  return text;
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
