import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { type HttpMethod, isRouteContract, type RouteContract } from './route';

export * from './route';

/**
 * Every route of the API, read from contract/routes/: each module there is one route's contract, named
 * as its function module (`contract/routes/<handler>.ts` beside `lambdas/routes/<handler>.ts`), so adding
 * a route adds no line to a list. The stack, the local gateway, the API document, the docs, the tests
 * and the bench read them all from here, in Node; a function bundles only its own contract, and the
 * dashboard imports the contracts it calls one by one.
 */

const CONTRACTS = path.join(__dirname, 'routes');

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const loadContract = (file: string): RouteContract => {
  const handler = path.parse(file).name;
  const found = Object.values(require(path.join(CONTRACTS, file)) as Record<string, unknown>).filter(isRouteContract);
  const [contract] = found;
  if (contract === undefined || found.length !== 1 || contract.handler !== handler) {
    throw new Error(`contract/routes/${file} must export one route contract, whose handler is '${handler}'`);
  }
  return contract;
};

/**
 * Every route of the API, by path (code unit by code unit: a static segment such as `me` before a
 * parameter `{email}` beside it, as `{` follows every letter and digit), then GET, POST, PUT, PATCH, DELETE.
 */
export const routes: readonly RouteContract[] = readdirSync(CONTRACTS)
  .filter((file) => /\.[jt]s$/.test(file) && !file.endsWith('.d.ts'))
  .map(loadContract)
  .sort(
    (a, b) =>
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
