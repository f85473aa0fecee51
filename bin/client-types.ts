import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiDocument } from '@lib/api-document';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/**
 * The typed client's types (`client/api-types.ts`), generated from the API document by
 * openapi-typescript: `npm run generate:client` (and `npm run docs`) writes them, and a unit test fails
 * when the committed file differs, so the client follows the route contracts.
 */

/** The generated file, from the repository's root. */
export const CLIENT_TYPES_FILE = 'client/api-types.ts';

const HEADER = `/**
 * The API's paths, operations and schemas, generated from its OpenAPI document (lib/api-document.ts)
 * by openapi-typescript. Do not edit: \`npm run generate:client\` writes this file from the route
 * contracts, and a unit test fails when it is out of date.
 */

`;

/** The first line where the committed text and a fresh one differ, both sides shown. */
const firstDifference = (committed: string, fresh: string): string => {
  const [a, b] = [committed.split('\n'), fresh.split('\n')];
  const index = a.findIndex((text, i) => text !== b[i]);
  const at = index === -1 ? a.length : index;
  return `line ${at + 1}: ${JSON.stringify(a[at] ?? null)} where a fresh generation has ${JSON.stringify(b[at] ?? null)}`;
};

/** The file's text, fresh from the route contracts. */
export const clientTypes = async (): Promise<string> =>
  HEADER + astToString(await openapiTS(apiDocument() as unknown as OpenAPI3));

/**
 * Writes the file when it differs from a fresh generation and says so; with `check`, changes nothing,
 * and a stale file sets exit code 1 with the command (`rerun`) that brings it up to date.
 */
export const syncClientTypes = async (check: boolean, rerun: string): Promise<void> => {
  const path = join(__dirname, '..', CLIENT_TYPES_FILE);
  const fresh = await clientTypes();
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === fresh) {
    console.log(`${CLIENT_TYPES_FILE}: already matches the route contracts.`);
  } else if (check) {
    console.error(
      `${CLIENT_TYPES_FILE} is out of date with the route contracts (${firstDifference(current ?? '', fresh)}): run \`${rerun}\`.`,
    );
    process.exitCode = 1;
  } else {
    writeFileSync(path, fresh);
    console.log(`${CLIENT_TYPES_FILE}: written from the route contracts.`);
  }
};
