import fc from 'fast-check';
import { resourceMatches } from '../../../local/gateway';

/** The glob as a regular expression: the obvious reading of `*`, fine for short inputs. */
const reference = (pattern: string, arn: string): boolean =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(arn);

describe('resourceMatches', () => {
  it('agrees with the regular expression reading of `*` on short resources', () => {
    const text = (maxLength: number) =>
      fc.array(fc.constantFrom('a', 'b', '/', '*'), { maxLength }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(text(10), text(12), (pattern, arn) => {
        expect(resourceMatches(pattern, arn)).toBe(reference(pattern, arn));
      }),
      { numRuns: 5_000 },
    );
  });

  it('matches a resource of a hundred `*` against itself', () => {
    const arn = `arn:aws:execute-api:local:000000000000:local/local/DELETE/api/v1/tokens/${'a*'.repeat(100)}`;
    expect(resourceMatches(arn, arn)).toBe(true);
    expect(resourceMatches(arn, arn.replace('DELETE', 'GET'))).toBe(false);
  });
});
