import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { fromAttribute, fromAttributes, toAttribute, toAttributes, type Value } from '@lambdas/data/attributes';
import fc from 'fast-check';

/**
 * Attribute names. `__proto__` and `constructor` are left out here only because the SDK's marshaller,
 * the reference these tests compare with, mishandles them; a test below covers them.
 */
const name = fc.string({ minLength: 1 }).filter((text) => text !== '__proto__' && text !== 'constructor');

/** Every kind of value the table holds, nested as items nest them. */
const value: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.oneof(
      fc.maxSafeInteger(),
      // DynamoDB numbers have no negative zero: -0 is stored, and read, as 0.
      fc.double({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, noNaN: true }).map((n) => n + 0),
    ),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(name, tie('value'), { maxKeys: 4 }),
  ),
})).value;

const record = fc.dictionary(name, fc.option(value, { nil: undefined }), { maxKeys: 6 });

describe('attributes', () => {
  it('writes what the AWS SDK’s own marshaller writes', () => {
    fc.assert(
      fc.property(record, (item) => {
        expect(toAttributes(item)).toEqual(marshall(item, { removeUndefinedValues: true }));
      }),
    );
  });

  it('reads what the AWS SDK’s own marshaller writes', () => {
    fc.assert(
      fc.property(record, (item) => {
        const written = marshall(item, { removeUndefinedValues: true });
        expect(fromAttributes(written)).toEqual(unmarshall(written));
      }),
    );
  });

  it('reads back every value it writes', () => {
    fc.assert(fc.property(value, (written) => expect(fromAttribute(toAttribute(written))).toEqual(written)));
  });

  it('treats every attribute name as a plain name', () => {
    const attributes = JSON.parse('{"__proto__":{"S":"a"},"constructor":{"M":{"__proto__":{"N":"1"}}}}');
    const record = fromAttributes(attributes);
    expect(Object.keys(record)).toEqual(['__proto__', 'constructor']);
    expect(record.constructor).toEqual(JSON.parse('{"__proto__":1}'));
    expect(toAttributes(record)).toEqual(attributes);
  });

  it("writes the parts of an item as one, a later part's field over an earlier one's", () => {
    expect(toAttributes({ PK: 'a', SK: 'b' }, { entity: 'Token', ttl: undefined }, { SK: 'c', n: 1 })).toEqual({
      PK: { S: 'a' },
      SK: { S: 'c' },
      entity: { S: 'Token' },
      n: { N: '1' },
    });
  });

  it('leaves out fields that are undefined', () => {
    expect(toAttributes({ kept: 'a', dropped: undefined })).toEqual({ kept: { S: 'a' } });
  });

  it('refuses numbers DynamoDB cannot store', () => {
    expect(() => toAttribute(Number.NaN)).toThrow('Cannot store the number NaN');
    expect(() => toAttribute(Number.POSITIVE_INFINITY)).toThrow('Cannot store the number Infinity');
    expect(() => toAttribute(2 ** 53)).toThrow('Cannot store the number 9007199254740992');
  });

  it('refuses attribute types the table never writes', () => {
    expect(() => fromAttribute({ SS: ['a'] })).toThrow('Unexpected attribute type SS');
    expect(() => fromAttribute({ B: new Uint8Array([1]) })).toThrow('Unexpected attribute type B');
  });
});
