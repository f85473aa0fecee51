import {
  MAX_REFERENCE_DEPTH,
  PROBLEM_TEXT,
  parseValue,
  placesReferenced,
  referenceResolver,
  referencesIn,
  targetKey,
} from '@lambdas/domain/references';
import fc from 'fast-check';

const PROJECT = 'prj_AAAAAAAAAAAAAAAA';
const OTHER = 'prj_BBBBBBBBBBBBBBBB';
const here = { projectId: PROJECT, environment: 'development' };

/** A resolver over `values`, each `[environment, name, value]` of PROJECT (`value` undefined: unreadable). */
const resolverOf = (values: readonly (readonly [string, string, string | undefined])[], maxBytes = 1000) =>
  referenceResolver(
    new Map(values.map(([environment, name, value]) => [targetKey({ projectId: PROJECT, environment, name }), value])),
    maxBytes,
  );

describe('parseValue', () => {
  it('reads the three forms of reference, each pointing from where the value is read', () => {
    expect(parseValue(`a \${DB} b \${staging.DB_URL} \${${OTHER}.production.KEY}`, here)).toEqual([
      { text: 'a ' },
      { reference: '${DB}', target: { projectId: PROJECT, environment: 'development', name: 'DB' } },
      { text: ' b ' },
      { reference: '${staging.DB_URL}', target: { projectId: PROJECT, environment: 'staging', name: 'DB_URL' } },
      { text: ' ' },
      {
        reference: `\${${OTHER}.production.KEY}`,
        target: { projectId: OTHER, environment: 'production', name: 'KEY' },
      },
    ]);
  });

  it('writes $${ as a literal ${, which then opens no reference', () => {
    expect(parseValue('$${DB} and $${', here)).toEqual([{ text: '${DB} and ${' }]);
  });

  it.each([
    ['an unclosed ${', 'x ${DB'],
    ['a space', '${a b}'],
    ['an empty body', '${}'],
    ['a name starting with a digit', '${1DB}'],
    ['an environment in capitals', '${Staging.DB}'],
    ['__proto__', '${__proto__}'],
    ['a malformed project id', '${prj_short.production.DB}'],
    ['too many parts', '${a.b.c.d}'],
    ['a lone $', 'cost: $5 {x}'],
  ])('leaves text with %s as written', (_case, value) => {
    expect(parseValue(value, here)).toEqual([{ text: value }]);
  });

  it('starts and ends with a reference without empty text beside it', () => {
    expect(parseValue('${A}${B}', here).map((part) => ('text' in part ? 'text' : part.reference))).toEqual([
      '${A}',
      '${B}',
    ]);
  });

  it('reads a name that only begins like __proto__ as a name', () => {
    expect(referencesIn('${__proto__x}', here).map((part) => part.target.name)).toEqual(['__proto__x']);
  });

  it('reads a reference right after a ${ that opens none', () => {
    expect(referencesIn('${${DB}', here).map((part) => part.reference)).toEqual(['${DB}']);
  });

  it('gives back any value without references, bar its escapes, as written', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const parts = parseValue(value, here);
        const joined = parts.map((part) => ('text' in part ? part.text : part.reference)).join('');
        if (!value.includes('$${')) expect(joined).toBe(value);
        const twoTexts = parts.some((part, i) => i > 0 && 'text' in part && 'text' in (parts[i - 1] as object));
        expect(twoTexts).toBe(false);
      }),
    );
  });

  it('reads back an escaped text as the text itself, never as a reference', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = text.replaceAll('${', '$${');
        // Escaping is unambiguous only where no `$` precedes a `${` (`$${` then reads as `$` + escape).
        fc.pre(!text.includes('$$'));
        expect(parseValue(escaped, here)).toEqual(text === '' ? [] : [{ text }]);
      }),
    );
  });
});

describe('placesReferenced', () => {
  it('names each other environment a value references once, leaving out its own', () => {
    const value = `\${A} \${staging.B} \${staging.C} \${${OTHER}.production.D} \${${PROJECT}.development.E}`;
    expect(placesReferenced(value, here)).toEqual([`${PROJECT}/staging`, `${OTHER}/production`]);
  });
});

describe('PROBLEM_TEXT', () => {
  it('says each problem in the words the API answers', () => {
    expect(PROBLEM_TEXT).toEqual({
      unreadable: 'names no secret this caller can read',
      cycle: 'leads back to a secret it is part of',
      depth: 'nests more than 5 references deep',
      size: 'resolves to a value longer than a value may be',
    });
  });
});

describe('referenceResolver', () => {
  it('resolves references, and references inside referenced values', () => {
    const { resolve } = resolverOf([
      ['development', 'HOST', 'db.local'],
      ['staging', 'URL', 'postgres://${development.HOST}:${PORT}'],
      ['staging', 'PORT', '5432'],
    ]);
    expect(resolve('url=${staging.URL}', here)).toEqual({ value: 'url=postgres://db.local:5432' });
  });

  it(`resolves ${MAX_REFERENCE_DEPTH} levels of references and refuses one more`, () => {
    const chain = (levels: number) =>
      Array.from(
        { length: levels },
        (_, i) => ['development', `L${i}`, i === levels - 1 ? 'end' : `\${L${i + 1}}`] as const,
      );
    expect(resolverOf(chain(MAX_REFERENCE_DEPTH)).resolve('${L0}', here)).toEqual({ value: 'end' });
    // L5 is one level deeper than the rounds read: the reader leaves it out.
    const deeper = chain(MAX_REFERENCE_DEPTH + 1).slice(0, MAX_REFERENCE_DEPTH);
    expect(resolverOf(deeper).resolve('${L0}', here)).toEqual({ failure: { reference: '${L0}', problem: 'depth' } });
    expect(resolverOf(chain(MAX_REFERENCE_DEPTH + 1)).resolve('${L0}', here)).toEqual({
      failure: { reference: '${L0}', problem: 'depth' },
    });
  });

  it('refuses a cycle, also through the secret being read', () => {
    const { resolve } = resolverOf([
      ['development', 'A', '${B}'],
      ['development', 'B', '${A}'],
      ['development', 'SELF', 'x${SELF}'],
    ]);
    expect(resolve('${A}', here)).toEqual({ failure: { reference: '${A}', problem: 'cycle' } });
    expect(resolve('x${SELF}', here, 'SELF')).toEqual({ failure: { reference: '${SELF}', problem: 'cycle' } });
  });

  it('resolves an older version’s reference to its own secret’s current value', () => {
    const { resolve } = resolverOf([['development', 'A', 'now']]);
    expect(resolve('was ${A}', here)).toEqual({ value: 'was now' });
  });

  it('refuses a missing or unreadable secret with one reason, naming the reference in the value', () => {
    const { resolve } = resolverOf([
      ['staging', 'HIDDEN', undefined],
      ['development', 'VIA', '${staging.HIDDEN}'],
    ]);
    expect(resolve('${staging.HIDDEN}', here)).toEqual({
      failure: { reference: '${staging.HIDDEN}', problem: 'unreadable' },
    });
    expect(resolve('a ${VIA}', here)).toEqual({ failure: { reference: '${VIA}', problem: 'unreadable' } });
  });

  it('refuses a value that references make longer than a value may be, without building it', () => {
    const { resolve } = resolverOf(
      [
        ['development', 'A', 'x'.repeat(60)],
        ['development', 'B', '${A}${A}'],
        ['development', 'C', '${B}${B}'],
      ],
      200,
    );
    expect(resolve('${B}', here)).toEqual({ value: 'x'.repeat(120) });
    expect(resolve('${C}', here)).toEqual({ failure: { reference: '${C}', problem: 'size' } });
  });

  it('counts the secret being read as part of a cycle while its own value resolves, and only then', () => {
    const { resolve } = resolverOf([['development', 'A', 'a']]);
    expect(resolve('${SELF}', here, 'SELF')).toEqual({ failure: { reference: '${SELF}', problem: 'cycle' } });
    expect(resolve('x', here, 'A')).toEqual({ value: 'x' });
    expect(resolve('${A}', here)).toEqual({ value: 'a' });
  });

  it('counts no secret as the one being read when none is, not even one named undefined', () => {
    const { resolve } = resolverOf([['development', 'undefined', 'u']]);
    expect(resolve('${undefined}', here)).toEqual({ value: 'u' });
  });

  it('allows a resolved value of exactly the largest size', () => {
    const { resolve } = resolverOf([['development', 'A', 'x'.repeat(10)]], 12);
    expect(resolve('..${A}', here)).toEqual({ value: `..${'x'.repeat(10)}` });
    expect(resolve('...${A}', here)).toEqual({ failure: { reference: '${A}', problem: 'size' } });
  });

  it('reads each target’s stored value once, however often it is referenced', () => {
    const stored = new Map([
      [targetKey({ ...here, name: 'A' }), 'a'],
      [targetKey({ ...here, name: 'B' }), '${A}${A}'],
    ]);
    const gets: string[] = [];
    const counting = new Map(stored);
    counting.get = (key: string) => {
      gets.push(key);
      return stored.get(key);
    };
    const { resolve } = referenceResolver(counting, 100);
    expect(resolve('${B}${A}${B}', here)).toEqual({ value: 'aaaaa' });
    expect(gets.sort()).toEqual([targetKey({ ...here, name: 'A' }), targetKey({ ...here, name: 'B' })]);
  });

  it('resolves a value shared by many references once', () => {
    const values: [string, string, string][] = [['development', 'L0', 'v']];
    for (let i = 1; i <= MAX_REFERENCE_DEPTH; i += 1) {
      values.push(['development', `L${i}`, `\${L${i - 1}}`.repeat(4)]);
    }
    const resolved = resolverOf(values, 10_000).resolve(`\${L${MAX_REFERENCE_DEPTH - 1}}`, here);
    expect(resolved).toEqual({ value: 'v'.repeat(4 ** (MAX_REFERENCE_DEPTH - 1)) });
  });
});
