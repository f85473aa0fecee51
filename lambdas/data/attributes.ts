import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * The values the table holds, and their DynamoDB attribute form. Written here rather than taken
 * from `@aws-sdk/lib-dynamodb`: the document client's generic marshalling costs every call about
 * 14 µs of CPU and its two packages 10 KiB of every bundle (`npm run bench`), for a table whose items
 * are only strings, numbers, null, lists and maps. Anything else is refused, never guessed.
 */
export type Value =
  | string
  | number
  | boolean
  | null
  | readonly Value[]
  | { readonly [name: string]: Value | undefined };

/** An item, key or set of expression values in attribute form. */
export type Attributes = Record<string, AttributeValue>;

/**
 * Sets a field of a record built here, so that any name is just a name: `__proto__` becomes a field
 * rather than the prototype. The records stay plain objects: a record without a prototype is a
 * dictionary to V8, and the SDK's serializer walks such maps about 5 µs slower per write
 * (`npm run bench`, warm CPU).
 */
const setField = <T>(record: Record<string, T>, name: string, value: T): void => {
  if (name === '__proto__')
    Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
};

/**
 * One value as an attribute. A number must be finite (DynamoDB has no NaN or infinity) and within
 * ±2^53 - 1, where it reads back exactly: the SDK's own marshaller draws the same line.
 */
export const toAttribute = (value: Value): AttributeValue => {
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') {
    if (!(Math.abs(value) <= Number.MAX_SAFE_INTEGER)) throw new TypeError(`Cannot store the number ${value}`);
    return { N: String(value) };
  }
  if (typeof value === 'boolean') return { BOOL: value };
  if (value === null) return { NULL: true };
  if (Array.isArray(value)) return { L: value.map(toAttribute) };
  return { M: toAttributes(value) };
};

type Fields<T> = { readonly [K in keyof T]: Value | undefined };

/**
 * Records as the attributes of one item, a later record's field over an earlier one's; fields that
 * are `undefined` are left out, as if never set. Taking the parts (keys, entity, record) as they are
 * spares building their merged copy first.
 */
export const toAttributes = <
  A extends Fields<A>,
  B extends Fields<B> = Record<never, never>,
  C extends Fields<C> = Record<never, never>,
  D extends Fields<D> = Record<never, never>,
>(
  ...records: readonly [A, B?, C?, D?]
): Attributes => {
  const attributes: Attributes = {};
  for (const record of records) {
    for (const name in record) {
      const value: Value | undefined = (record as Record<string, Value | undefined>)[name];
      if (value !== undefined) setField(attributes, name, toAttribute(value));
    }
  }
  return attributes;
};

/** One attribute as a value; a type this table never writes (sets, binary) is an error. */
export const fromAttribute = (attribute: AttributeValue): Value => {
  if (attribute.S !== undefined) return attribute.S;
  if (attribute.N !== undefined) return Number(attribute.N);
  if (attribute.BOOL !== undefined) return attribute.BOOL;
  if (attribute.NULL !== undefined) return null;
  if (attribute.L !== undefined) return attribute.L.map(fromAttribute);
  if (attribute.M !== undefined) return fromAttributes(attribute.M);
  throw new TypeError(`Unexpected attribute type ${Object.keys(attribute).join(', ')}`);
};

/** Attributes as a record. */
export const fromAttributes = (attributes: Attributes): Record<string, Value> => {
  const record: Record<string, Value> = {};
  for (const name in attributes) {
    const attribute = attributes[name];
    if (attribute !== undefined) setField(record, name, fromAttribute(attribute));
  }
  return record;
};
