import { mkdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { routes } from '../contract/routes';
import { esbuildOptions, PROJECT_ROOT } from '../lib/bundling';
import { AUTHORIZER_ENTRY, routeEntry } from '../lib/constructs/service-api';

/** One bundle built exactly as the stack builds it. */
export interface Bundle {
  readonly name: string;
  readonly file: string;
  readonly bytes: number;
  /** The same bundle built without a source map, for the source-map tax. */
  readonly unmappedFile: string;
}

/** Bundles the floor, the authorizer and every route with the stack's esbuild settings, and each again without a source map. */
export const buildBundles = async (outDir: string): Promise<{ floor: Bundle; functions: Bundle[] }> => {
  mkdirSync(outDir, { recursive: true });
  const entries: [string, string][] = [
    ['floor', 'bench/floor.ts'],
    ['authorizer', AUTHORIZER_ENTRY],
    ...routes.map((route) => [route.handler, routeEntry(route)] as [string, string]),
  ];
  const bundles = await Promise.all(
    entries.map(async ([name, entry]) => {
      const file = path.join(outDir, name, 'index.js');
      const unmappedFile = path.join(outDir, `${name}-unmapped`, 'index.js');
      await build(esbuildOptions(path.join(PROJECT_ROOT, entry), file));
      await build({ ...esbuildOptions(path.join(PROJECT_ROOT, entry), unmappedFile), sourcemap: false });
      return { name, file, bytes: statSync(file).size, unmappedFile };
    }),
  );
  const [floor, ...functions] = bundles;
  if (!floor) throw new Error('no floor bundle');
  return { floor, functions };
};

/** A bench script bundled with the same settings, so that the code it runs is compiled as deployed. */
export const buildScript = async (entry: string, outDir: string): Promise<string> => {
  const file = path.join(outDir, 'index.js');
  await build(esbuildOptions(path.join(PROJECT_ROOT, entry), file));
  return file;
};
