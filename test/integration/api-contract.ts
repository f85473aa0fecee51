import { templateFor } from '@contract/route-table';
import { apiDocument } from '@lib/api-document';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

/**
 * Checks a reply of the service against the generated OpenAPI document: a documented (method, path)
 * must answer a documented status, with a body that matches that status's schema and its required
 * headers. harness.ts's `call` runs this on every reply, so a response that drifts from the document
 * fails the integration suite. Validators are compiled once per distinct schema, on first use.
 */

type Json = Record<string, unknown>;

const document = apiDocument();
const components = (document.components?.schemas ?? {}) as Record<string, unknown>;
const headerComponents = (document.components?.headers ?? {}) as Record<string, Json>;
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
const validators = new Map<string, ValidateFunction>();

/** The schema with every `#/components/schemas/<name>` reference replaced by the component. */
const dereference = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(dereference);
  if (typeof schema !== 'object' || schema === null) return schema;
  const ref = (schema as Json).$ref;
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '');
    if (!(name in components)) throw new Error(`unresolvable $ref ${ref} in the API document`);
    return dereference(components[name]);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, dereference(value)]));
};

const templates = Object.keys(document.paths ?? {});

/**
 * The documented path template a concrete path is served by, if any (dot segments resolved, and a static
 * segment chosen over a parameter beside it, as the gateway does).
 */
const documentedPath = (path: string): string | undefined =>
  templateFor(templates, new URL(path, 'http://local').pathname);

/**
 * Throws when a reply to a documented operation is not documented: unknown status, missing required
 * header, or a body that does not match the status's schema. Other replies (unknown paths and
 * methods, the development identity provider) pass unchecked.
 */
export const assertDocumentedReply = (
  method: string,
  path: string,
  reply: { status: number; headers: Record<string, string | string[] | undefined>; body: unknown; text: string },
): void => {
  const template = documentedPath(path);
  if (!template) return;
  const item = document.paths?.[template] as Record<string, { responses?: Record<string, Json> }> | undefined;
  const operation = item?.[method.toLowerCase()];
  if (!operation) return;
  const where = `${method} ${template} answered ${reply.status}`;
  const response = operation.responses?.[String(reply.status)];
  if (!response) throw new Error(`${where}, a status the API document does not list: ${reply.text}`);
  for (const [name, declared] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const ref = declared.$ref;
    const header = typeof ref === 'string' ? headerComponents[ref.replace('#/components/headers/', '')] : declared;
    if (!header) throw new Error(`unresolvable $ref ${ref} in the API document`);
    const value = reply.headers[name.toLowerCase()];
    if (header.required && value === undefined) throw new Error(`${where} without its documented ${name} header`);
    const fixed = (header.schema as Json | undefined)?.const;
    if (fixed !== undefined && value !== undefined && value !== fixed) {
      throw new Error(`${where} with ${name}: ${value}, where the API document fixes ${fixed}`);
    }
  }
  const schema = (response.content as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema;
  if (!schema) return;
  // Keyed by the schema itself: the many identical error schemas (401, 429, 500, 503...) compile once.
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(dereference(schema) as Json);
    validators.set(key, validate);
  }
  if (!validate(reply.body)) {
    throw new Error(
      `${where} with a body the API document does not allow: ${ajv.errorsText(validate.errors)}\n${reply.text}`,
    );
  }
};
