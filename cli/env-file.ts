import { parse as parseDotenv } from 'dotenv';
import { CommandError } from './errors';

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;

/**
 * The entries of a `.env` file, all or none: `dotenv.parse` skips a line it cannot read without a word,
 * so every line is first checked to be blank, a comment, `NAME=value`, or part of a quoted value that
 * spans lines; any other line fails the whole file.
 */
export const parseEnvFile = (text: string, file: string): Record<string, string> => {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const names: string[] = [];
  let openQuote: string | undefined;
  lines.forEach((line, index) => {
    if (openQuote !== undefined) {
      if (line.includes(openQuote)) openQuote = undefined;
      return;
    }
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const match = ASSIGNMENT.exec(line);
    if (!match?.[1]) {
      throw new CommandError(`${file}:${index + 1} is not NAME=value: nothing was imported`);
    }
    names.push(match[1]);
    const rest = (match[2] ?? '').trim();
    const quote = rest[0];
    if ((quote === '"' || quote === "'" || quote === '`') && !rest.slice(1).includes(quote)) openQuote = quote;
  });
  if (openQuote !== undefined) throw new CommandError(`${file}: a quoted value is not closed: nothing was imported`);
  const entries = parseDotenv(text);
  const missing = names.filter((name) => !Object.hasOwn(entries, name));
  if (missing.length > 0) {
    throw new CommandError(`${file}: the value of ${missing.join(', ')} cannot be read: nothing was imported`);
  }
  return entries;
};
