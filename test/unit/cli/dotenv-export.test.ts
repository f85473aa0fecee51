import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { expand } from 'dotenv-expand';
import fc from 'fast-check';
import { CommandError } from '../../../cli/errors';
import { dollarEscapedNames, dotenvOnlyNames, formatExport } from '../../../cli/formats';

/**
 * `secrets export --format dotenv` against the readers of a .env file: POSIX shells sourcing it with
 * `set -a; . ./file` and `dotenv-expand` (what Next.js and Vite load .env files with), which must never
 * run or expand anything in a value, and `dotenv`; `dotenv-expand` reads every value back exactly, and
 * `dotenv` and the shells too, but for the backslash before each `$` of a value dotenv-expand would
 * expand something in.
 */

/** What dotenv-expand makes of `text`, where every name it could expand is set to something else. */
const expanded = (text: string): Record<string, string> => {
  const parsed = parseDotenv(text);
  const lure = Object.fromEntries(['HOME', 'X', 'a', 'n', ...Object.keys(parsed)].map((name) => [name, 'EXPANDED']));
  // processEnv wins over the file for a name it holds: give it only the names the file does not set.
  for (const name of Object.keys(parsed)) delete lure[name];
  return expand({ parsed: { ...parsed }, processEnv: lure }).parsed ?? {};
};

/** A value as dotenv and a shell read it from the export: with `\$` for each `$` when dotenv-expand would expand in it. */
const withEscapedDollars = (value: string): string => value.replace(/\$/g, () => '\\$');

const SHELLS = ['sh', 'bash', 'dash'].filter((shell) => {
  try {
    execFileSync('which', [shell], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

const work = mkdtempSync(join(tmpdir(), 'dotenv-export-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What `shell` sets when it sources `text` with `set -a`: each of `names` by its value, or null when unset. */
const sourced = (shell: string, text: string, names: readonly string[]): Record<string, string | null> => {
  const file = join(work, `export-${names.length}-${Math.random().toString(36).slice(2)}.env`);
  writeFileSync(file, text);
  const script = `process.stdout.write(JSON.stringify(Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, process.env[n] ?? null]))))`;
  const output = execFileSync(shell, ['-c', 'set -a; . "$FILE"; exec "$NODE" -e "$SCRIPT"'], {
    cwd: work,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: work, FILE: file, NODE: process.execPath, SCRIPT: script },
  });
  return JSON.parse(output) as Record<string, string | null>;
};

describe('secrets export --format dotenv', () => {
  const marks = (label: string) => join(work, `ran-${label}`);
  const values: Record<string, string> = {
    SINGLE: "it's",
    DOUBLE: 'say "hi"',
    DOLLAR: `$HOME \${HOME} $1 $`,
    SUBSTITUTION: `$(touch ${marks('substitution')})`,
    BACKTICKS: `\`touch ${marks('backticks')}\``,
    BACKSLASH: 'C:\\path\\n\\',
    NEWLINE: 'first\nsecond\n',
    HASH: 'a # not a comment',
    QUOTE_AND_DOLLAR: `it's $(touch ${marks('quote-and-dollar')}) $HOME`,
    QUOTE_AND_NEWLINE: "it's\nsecond",
    QUOTE_AND_BACKTICKS: `it's \`touch ${marks('quote-and-backticks')}\``,
    QUOTE_AND_BACKSLASH: "it's a \\ and \\n",
    HEREDOC_END: "it's $X\nSECRETS_DOTENV_ONLY\n$(touch /nonexistent)",
  };
  const names = Object.keys(values);

  it('refuses, rather than bends, a value ending in a backslash before another quoted line, which dotenv would read as one value', () => {
    expect(() => formatExport({ A: '\\', B: '\n' }, 'dotenv')).toThrow(CommandError);
  });

  /** The values dotenv-expand would expand something in, which dotenv and the shells read with `\$`. */
  const escaped = ['DOLLAR', 'HEREDOC_END', 'QUOTE_AND_DOLLAR'];
  const asDotenvReads = Object.fromEntries(
    names.map((name) => [name, escaped.includes(name) ? withEscapedDollars(values[name] as string) : values[name]]),
  );

  it('is read back exactly by dotenv, but for a backslash before each $ of the values dotenv-expand would expand in', () => {
    expect(dollarEscapedNames(values)).toEqual(escaped);
    expect(asDotenvReads.DOLLAR).toBe(String.raw`\$HOME \${HOME} \$1 \$`);
    expect(parseDotenv(formatExport(values, 'dotenv'))).toEqual(asDotenvReads);
  });

  it('is read back exactly by dotenv-expand, which expands nothing in it', () => {
    expect(expanded(formatExport(values, 'dotenv'))).toEqual(values);
  });

  it.each(SHELLS)('runs and expands nothing when %s sources it, and sets every value it can exactly', (shell) => {
    const read = sourced(shell, formatExport(values, 'dotenv'), names);
    expect(readdirSync(work).filter((file) => file.startsWith('ran-'))).toEqual([]);
    expect(existsSync(marks('substitution'))).toBe(false);
    const hidden = dotenvOnlyNames(values);
    // A value with a ' and a $, `, \ or " has no quoting both a shell and dotenv read exactly: dotenv gets it.
    expect(hidden).toEqual(['HEREDOC_END', 'QUOTE_AND_BACKSLASH', 'QUOTE_AND_BACKTICKS', 'QUOTE_AND_DOLLAR']);
    expect(read).toEqual(
      Object.fromEntries(names.map((name) => [name, hidden.includes(name) ? null : asDotenvReads[name]])),
    );
  });

  it('gives any value exactly to dotenv-expand, to dotenv and a shell as dotenv-expand needs it or not at all to a shell, or refuses it', () => {
    const characters = fc.constantFrom("'", '"', '$', '`', '\\', '\n', '#', '(', ')', '{', '}', ' ', 'a', 'n', '=');
    const valueMaps = fc.dictionary(
      fc.stringMatching(/^[A-Z][A-Z0-9_]{0,8}$/),
      fc.string({ unit: characters, maxLength: 12 }),
      { maxKeys: 4 },
    );
    fc.assert(
      fc.property(valueMaps, (generated) => {
        let text: string;
        try {
          text = formatExport(generated, 'dotenv');
        } catch (error) {
          // A value with all three of dotenv's quotes has no quoting dotenv reads back, nor has one with a
          // backslash that dotenv takes to escape its closing quote (`A='\'` then a later `'`, read as one
          // value): refused, never bent.
          expect(error).toBeInstanceOf(CommandError);
          // A `$` before `{` or a letter is written as `\$`, a backslash like any other.
          expect(
            Object.values(generated).some(
              (value) =>
                (/'/.test(value) && /"/.test(value) && /`/.test(value)) ||
                value.includes('\\') ||
                /\$[{a-z]/.test(value),
            ),
          ).toBe(true);
          return;
        }
        expect(expanded(text)).toEqual(generated);
        const escapedNames = dollarEscapedNames(generated);
        const dotenvReads = Object.fromEntries(
          Object.entries(generated).map(([name, value]) => [
            name,
            escapedNames.includes(name) ? withEscapedDollars(value) : value,
          ]),
        );
        expect(parseDotenv(text)).toEqual(dotenvReads);
        for (const [name, value] of Object.entries(generated)) {
          // Escaped exactly where dotenv-expand would expand or unescape something.
          expect(escapedNames.includes(name)).toBe(/\$[{a-z]/.test(value) || value.includes('\\$'));
        }
        const hidden = dotenvOnlyNames(generated);
        for (const shell of SHELLS) {
          const read = sourced(shell, text, Object.keys(generated));
          for (const name of Object.keys(generated)) {
            expect(read[name]).toBe(hidden.includes(name) ? null : dotenvReads[name]);
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});
