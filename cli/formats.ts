import { parse as parseDotenv } from 'dotenv';
import { stringify as stringifyYaml } from 'yaml';
import { CommandError } from './errors';

/** The formats `secrets export` writes. */
export const EXPORT_FORMATS = ['dotenv', 'json', 'yaml', 'shell'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * One `.env` line whose value `dotenv.parse` reads back exactly. dotenv unescapes nothing but `\n` and
 * `\r` in double quotes and nothing at all in single quotes or backticks, so each quoting is tried in
 * turn and the first that the parser itself reads back is kept; a value no quoting can hold (one with a
 * carriage return, which dotenv reads as a line break) is refused rather than written wrong.
 */
const dotenvLine = (name: string, value: string): string => {
  const candidates = [`"${value.replace(/\n/g, '\\n')}"`, `'${value}'`, `\`${value}\``];
  for (const quoted of candidates) {
    const line = `${name}=${quoted}`;
    if (parseDotenv(line)[name] === value) return line;
  }
  throw new CommandError(
    `the value of ${name} cannot be written so that dotenv reads it back exactly (a carriage return, or quotes and escapes no .env quoting holds): use --format json, yaml or shell`,
  );
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
      return entries.map(([name, value]) => `${dotenvLine(name, value)}\n`).join('');
  }
};
