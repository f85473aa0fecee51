import { SECRET_NAME_PATTERN, SECRET_NAME_RULE } from '@contract/identifiers';
import { parse as parseDotenv } from 'dotenv';
import { CommandError } from './errors';

/** `NAME=value`, maybe after `export `: the name is whatever comes before the first `=`. */
const ASSIGNMENT = /^\s*(?:export\s+)?([^=]*?)\s*=(.*)$/;

const refuse = (where: string, problem: string) => new CommandError(`${where} ${problem}: nothing was imported`);

/**
 * The entries of a `.env` file, all or none: `dotenv.parse` skips a line it cannot read without a word
 * and keeps the last of two lines that set one name, so every line is first checked to be blank, a
 * comment, `NAME=value` with a secret's name set once in the file, or part of a quoted value that
 * spans lines; any other line fails the whole file, naming its line.
 */
export const parseEnvFile = (text: string, file: string): Record<string, string> => {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const firstLine = new Map<string, number>();
  let openQuote: string | undefined;
  lines.forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    if (openQuote !== undefined) {
      if (line.includes(openQuote)) openQuote = undefined;
      return;
    }
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const match = ASSIGNMENT.exec(line);
    if (!match) throw refuse(where, 'is not NAME=value');
    const name = match[1] ?? '';
    if (name === '') throw refuse(where, 'has no name before =');
    if (!SECRET_NAME_PATTERN.test(name))
      throw refuse(where, `sets ${JSON.stringify(name)}, not a secret name: ${SECRET_NAME_RULE}`);
    const first = firstLine.get(name);
    if (first !== undefined) throw refuse(where, `sets ${name} again (first on line ${first})`);
    firstLine.set(name, index + 1);
    const rest = (match[2] ?? '').trim();
    const quote = rest[0];
    if ((quote === '"' || quote === "'" || quote === '`') && !rest.slice(1).includes(quote)) openQuote = quote;
  });
  if (openQuote !== undefined) throw new CommandError(`${file}: a quoted value is not closed: nothing was imported`);
  const entries = parseDotenv(text);
  const missing = [...firstLine.keys()].filter((name) => !Object.hasOwn(entries, name));
  if (missing.length > 0) {
    throw new CommandError(`${file}: the value of ${missing.join(', ')} cannot be read: nothing was imported`);
  }
  return entries;
};
