import { SECRET_NAME_PATTERN } from '@contract/identifiers';

// Written here rather than taken from the `dotenv` package: its module needs Node's fs, path, os and url
// (so it does not bundle for a browser), and its parse skips a wrong line without saying which.

/** One `NAME=value` of a pasted .env, with its line (from 1). */
export interface DotenvEntry {
  readonly line: number;
  readonly name: string;
  readonly value: string;
}

/** What is wrong with one line: its number, the name it sets when it has one, never its value. */
export interface DotenvProblem {
  readonly line: number;
  readonly name?: string;
  readonly message: string;
}

const NAME_RULE = 'Not a secret name: use 1 to 128 characters of A-Z, a-z, 0-9 and _, not starting with a digit';

/** What `\x` stands for inside double quotes; any other escaped character stands for itself. */
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };

/** The value after `=`: unquoted, single-quoted (as written) or double-quoted (escapes read); else a problem. */
const readValue = (raw: string): { value: string } | { problem: string } => {
  const text = raw.trim();
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    let value = '';
    for (let index = 1; index < text.length; index += 1) {
      const char = text[index] as string;
      if (char === quote) {
        const rest = text.slice(index + 1).trim();
        return rest === '' || rest.startsWith('#') ? { value } : { problem: 'Text after the value’s closing quote' };
      }
      if (quote === '"' && char === '\\' && index + 1 < text.length) {
        index += 1;
        const escaped = text[index] as string;
        value += ESCAPES[escaped] ?? escaped;
      } else value += char;
    }
    return { problem: `The value’s opening ${quote} is never closed` };
  }
  // Unquoted: a `#` after a space starts a comment, as in a shell.
  const comment = text.search(/\s#/);
  return { value: (comment === -1 ? text : text.slice(0, comment)).trim() };
};

/**
 * Reads a pasted .env: `NAME=value` lines, each maybe after `export `, with values bare, in single
 * quotes (as written) or in double quotes (`\n`, `\r`, `\t`, `\"` and `\\` read); blank lines and
 * `#` comments are skipped. Answers the entries and, per wrong line, what is wrong with it.
 */
export const parseDotenv = (text: string): { entries: DotenvEntry[]; problems: DotenvProblem[] } => {
  const entries: DotenvEntry[] = [];
  const problems: DotenvProblem[] = [];
  const firstLine = new Map<string, number>();
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const content = raw.replace(/\r$/, '').trim();
    if (content === '' || content.startsWith('#')) return;
    const assignment = content.replace(/^export\s+/, '');
    const equals = assignment.indexOf('=');
    if (equals === -1) {
      problems.push({ line, message: 'Not NAME=value: no = sign' });
      return;
    }
    const name = assignment.slice(0, equals).trim();
    if (name === '') {
      problems.push({ line, message: 'No name before =' });
      return;
    }
    if (!SECRET_NAME_PATTERN.test(name)) {
      problems.push({ line, name, message: NAME_RULE });
      return;
    }
    const read = readValue(assignment.slice(equals + 1));
    if ('problem' in read) {
      problems.push({ line, name, message: read.problem });
      return;
    }
    const first = firstLine.get(name);
    if (first !== undefined) {
      problems.push({ line, name, message: `Set twice: first on line ${first}` });
      return;
    }
    firstLine.set(name, line);
    entries.push({ line, name, value: read.value });
  });
  return { entries, problems };
};
