import { MAX_EMAIL_LENGTH, readEmail } from '@contract/email';
import { ErrorText, type ValidationDetail } from '@contract/errors';
import { BadRequestError } from '@lambdas/domain/errors';

/**
 * The checks of a JSON request body, written out rather than built from a schema library: building
 * zod/mini schemas at load was about 10 % of a body route's cold start (`npm run bench`). Each body's
 * zod schema lives in lib/api-schemas.ts for the API document, and test/unit/http/bodies.test.ts
 * holds every body here to give the same data, or the same details in the same order, as its schema.
 * The messages are therefore zod's English ones.
 */

/** One field's check: the value it yields, meaningful only when it added no detail. */
export type FieldCheck<T> = (value: unknown, path: string, details: ValidationDetail[]) => T;

/** The type names zod's messages use: `null`, `array`, `NaN`, `Infinity`, or the `typeof`. */
const typeName = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value;
};

const invalidType = (expected: string, value: unknown): string =>
  `Invalid input: expected ${expected}, received ${typeName(value)}`;

const quoted = (values: readonly string[], separator: string): string =>
  values.map((value) => `"${value}"`).join(separator);

/**
 * A JSON object with exactly these fields, each checked in turn; any other key is one more detail,
 * after the fields' own. An absent optional field stays absent.
 */
export const strictObject = <T extends object>(fields: { readonly [K in keyof T]: FieldCheck<T[K]> }) => {
  const names = Object.keys(fields) as (keyof T & string)[];
  return (body: unknown): T => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new BadRequestError(ErrorText.validation, [{ path: '', message: invalidType('object', body) }]);
    }
    const input = body as Record<string, unknown>;
    const details: ValidationDetail[] = [];
    const output = {} as T;
    for (const name of names) {
      const value = fields[name](Object.hasOwn(input, name) ? input[name] : undefined, name, details);
      if (value !== undefined) output[name] = value;
    }
    const unknownKeys = Object.keys(input).filter((key) => !Object.hasOwn(fields, key));
    if (unknownKeys.length > 0) {
      const noun = unknownKeys.length === 1 ? 'key' : 'keys';
      details.push({ path: '', message: `Unrecognized ${noun}: ${quoted(unknownKeys, ', ')}` });
    }
    if (details.length > 0) throw new BadRequestError(ErrorText.validation, details);
    return output;
  };
};

/** A string, trimmed, of `min` to `max` characters. */
export const trimmedString =
  (min: number, max: number): FieldCheck<string> =>
  (value, path, details) => {
    if (typeof value !== 'string') {
      details.push({ path, message: invalidType('string', value) });
      return '';
    }
    const text = value.trim();
    if (text.length < min) details.push({ path, message: `Too small: expected string to have >=${min} characters` });
    if (text.length > max) details.push({ path, message: `Too big: expected string to have <=${max} characters` });
    return text;
  };

/** An e-mail address by the domain's rule (`readEmail`, as `normalizeEmail`), with a detail per rule it breaks. */
export const email: FieldCheck<string> = (value, path, details) => {
  if (typeof value !== 'string') {
    details.push({ path, message: invalidType('string', value) });
    return '';
  }
  const { email: address, wellFormed, withinLength } = readEmail(value);
  if (!wellFormed) details.push({ path, message: 'Invalid email address' });
  if (!withinLength) {
    details.push({ path, message: `Too big: expected string to have <=${MAX_EMAIL_LENGTH} characters` });
  }
  return address;
};

/** One of `options` (at least two). */
export const oneOf = <T extends string>(options: readonly T[]): FieldCheck<T> => {
  const message = `Invalid option: expected one of ${quoted(options, '|')}`;
  return (value, path, details) => {
    if (!options.includes(value as T)) details.push({ path, message });
    return value as T;
  };
};

/**
 * A list of at least one item, each passing `item`, none twice (`duplicate` is the detail). The
 * length and uniqueness are judged only when every item passed.
 */
export const uniqueList =
  <T>(item: FieldCheck<T>, duplicate: string): FieldCheck<T[]> =>
  (value, path, details) => {
    if (!Array.isArray(value)) {
      details.push({ path, message: invalidType('array', value) });
      return [];
    }
    const before = details.length;
    const items = value.map((entry, index) => item(entry, `${path}.${index}`, details));
    if (details.length > before) return items;
    if (items.length < 1) details.push({ path, message: 'Too small: expected array to have >=1 items' });
    else if (new Set(items).size !== items.length) details.push({ path, message: duplicate });
    return items;
  };

/** An integer from `min` to `max`, `null`, or absent. */
export const optionalInteger =
  (min: number, max: number): FieldCheck<number | null | undefined> =>
  (value, path, details) => {
    if (value === undefined || value === null) return value;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      details.push({ path, message: invalidType('number', value) });
      return undefined;
    }
    if (!Number.isInteger(value)) {
      details.push({ path, message: invalidType('int', value) });
      return undefined;
    }
    if (value > Number.MAX_SAFE_INTEGER) {
      details.push({ path, message: `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}` });
    } else if (value < Number.MIN_SAFE_INTEGER) {
      details.push({ path, message: `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}` });
    }
    if (value < min) details.push({ path, message: `Too small: expected number to be >=${min}` });
    if (value > max) details.push({ path, message: `Too big: expected number to be <=${max}` });
    return value;
  };
