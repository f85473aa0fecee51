import { parseDotenv } from '../../../dashboard/src/dotenv';

describe("the dashboard's .env reader", () => {
  it('reads NAME=value lines, with an optional export, skipping comments and blank lines', () => {
    const text = ['# deploy settings', '', 'export API_URL=https://api.example.com', '  LOG_LEVEL = debug  ', 'EMPTY='];
    expect(parseDotenv(text.join('\n'))).toEqual({
      entries: [
        { line: 3, name: 'API_URL', value: 'https://api.example.com' },
        { line: 4, name: 'LOG_LEVEL', value: 'debug' },
        { line: 5, name: 'EMPTY', value: '' },
      ],
      problems: [],
    });
  });

  it('unescapes double-quoted values, keeps single-quoted ones as written, and drops a comment after a value', () => {
    const text = [
      'GREETING="Hello\\nWorld \\"quoted\\" # not a comment"',
      'LITERAL=\'a\\nb "c"\' # a comment',
      'PLAIN=value # a comment',
      'HASH=a#b',
      'CRLF=windows\r',
    ];
    expect(parseDotenv(text.join('\n')).entries.map(({ name, value }) => [name, value])).toEqual([
      ['GREETING', 'Hello\nWorld "quoted" # not a comment'],
      ['LITERAL', 'a\\nb "c"'],
      ['PLAIN', 'value'],
      ['HASH', 'a#b'],
      ['CRLF', 'windows'],
    ]);
  });

  it('names each wrong line by its number, without repeating a value', () => {
    const text = [
      'OK=1',
      '1BAD=x',
      'just some s3cret words',
      '=s3cret-nameless',
      'OPEN="s3cret-unclosed',
      "TRAILING='done' s3cret-after",
      'OK=s3cret-again',
      'HAS-DASH=x',
    ];
    const { entries, problems } = parseDotenv(text.join('\n'));
    expect(entries.map((entry) => entry.name)).toEqual(['OK']);
    expect(problems).toEqual([
      { line: 2, name: '1BAD', message: expect.stringMatching(/^Not a secret name: /) },
      { line: 3, message: 'Not NAME=value: no = sign' },
      { line: 4, message: 'No name before =' },
      { line: 5, name: 'OPEN', message: 'The value’s opening " is never closed' },
      { line: 6, name: 'TRAILING', message: 'Text after the value’s closing quote' },
      { line: 7, name: 'OK', message: 'Set twice: first on line 1' },
      { line: 8, name: 'HAS-DASH', message: expect.stringMatching(/^Not a secret name: /) },
    ]);
    expect(JSON.stringify(problems)).not.toContain('s3cret');
  });
});
