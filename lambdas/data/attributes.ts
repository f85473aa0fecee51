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

/**
 * An item, key or set of expression values in attribute form. Records on both sides are built
 * without a prototype, so that any name, `__proto__` included, is just a name.
 */
export type Attributes = Record<string, AttributeValue>;

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

/** A record as attributes; fields that are `undefined` are left out, as if never set. */
export const toAttributes = <T extends { readonly [K in keyof T]: Value | undefined }>(record: T): Attributes => {
  const attributes: Attributes = Object.create(null);
  for (const name in record) {
    const value: Value | undefined = record[name];
    if (value !== undefined) attributes[name] = toAttribute(value);
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
  const record: Record<string, Value> = Object.create(null);
  for (const name in attributes) {
    const attribute = attributes[name];
    if (attribute !== undefined) record[name] = fromAttribute(attribute);
  }
  return record;
};
