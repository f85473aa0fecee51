import { parse as parseDotenv } from 'dotenv';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { parseDuration } from '../../../cli/duration';
import { parseEnvFile } from '../../../cli/env-file';
import { CommandError, UsageError } from '../../../cli/errors';
import { formatExport } from '../../../cli/formats';

const names = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/);
const valueMaps = fc.dictionary(names, fc.string({ unit: 'binary', maxLength: 40 }), { maxKeys: 5 });

describe('secrets export formats', () => {
  it('answers JSON and YAML that read back as the exact values', () => {
    fc.assert(
      fc.property(valueMaps, (values) => {
        expect(JSON.parse(formatExport(values, 'json'))).toEqual(values);
        expect(parseYaml(formatExport(values, 'yaml'))).toEqual(values);
      }),
    );
  });

  it('answers dotenv that dotenv.parse reads back exactly, or refuses the value', () => {
    fc.assert(
      fc.property(valueMaps, (values) => {
        let text: string;
        try {
          text = formatExport(values, 'dotenv');
        } catch (error) {
          expect(error).toBeInstanceOf(CommandError);
          return;
        }
        expect(parseDotenv(text)).toEqual(values);
      }),
    );
  });

  it('refuses a carriage return in dotenv, which the parser reads as a line break', () => {
    expect(() => formatExport({ A: 'one\r\ntwo' }, 'dotenv')).toThrow(CommandError);
  });
});

describe('parseEnvFile', () => {
  it('reads comments, export, quotes and values over several lines', () => {
    expect(parseEnvFile('# c\nexport A=1\nB="two\nlines"\n\nC=\'$x #y\'\n', '.env')).toEqual({
      A: '1',
      B: 'two\nlines',
      C: '$x #y',
    });
  });

  it.each([
    ['a line that is no assignment', 'A=1\nnot an assignment\n', '.env:2 is not NAME=value'],
    ['a name that is no variable name', 'A=1\n1B=2\n', '.env:2 sets "1B", not a secret name: use 1 to 128'],
    ['a name set twice', 'A=1\nB=2\nA=3\n', '.env:3 sets A again (first on line 1)'],
    ['a quote left open', 'A="open\nB=2\n', 'a quoted value is not closed'],
  ])('refuses the whole file for %s', (_label, text, message) => {
    expect(() => parseEnvFile(text, '.env')).toThrow(message);
  });
});

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
    ['500ms', 500],
    ['10', 10_000],
  ])('reads %s', (text, ms) => {
    expect(parseDuration(text, '--x')).toBe(ms);
  });

  it.each(['', '1.5h', '-1s', '10 minutes'])('refuses %p as a usage error', (text) => {
    expect(() => parseDuration(text, '--x')).toThrow(UsageError);
  });
});
