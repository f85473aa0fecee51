import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { routes } from '../contract/routes';
import { bundlingSettings, esbuildOptions, PROJECT_ROOT } from '../lib/bundling';
import { EXPIRY_NOTICES_ENTRY } from '../lib/constructs/expiry-notices';
import { OFFBOARDING_ENTRY } from '../lib/constructs/offboarding';
import { AUTHORIZER_ENTRY, routeEntry } from '../lib/constructs/service-api';
import { floorPlugin, floorSources, type LibraryImport, libraryImports, packageBytes } from './library-floor';

/** A bundle file and its size. */
export interface BundleFile {
  readonly file: string;
  readonly bytes: number;
}

/** One function's bundle built exactly as the stack builds it, and its floor. */
export interface Bundle extends BundleFile {
  readonly name: string;
  /** The same bundle as esbuild builds it without a source map, for the source-map tax. */
  readonly unmappedFile: string;
  /** The libraries it imports: what its floor is made of. */
  readonly libraries: readonly LibraryImport[];
  /** A bundle of those libraries and nothing else, built the same way (`bench/library-floor.ts`). */
  readonly floor: BundleFile;
}

/** Every function of the stack: the authorizer, the routes and the event functions, by name and entry. */
export const functionEntries = (): [string, string][] => [
  ['authorizer', AUTHORIZER_ENTRY],
  ...routes.map((route) => [route.handler, routeEntry(route)] as [string, string]),
  ['offboard-user', OFFBOARDING_ENTRY],
  ['send-expiry-notices', EXPIRY_NOTICES_ENTRY],
];

const sizeOf = (file: string): BundleFile => ({ file, bytes: statSync(file).size });

/**
 * Builds a function's floor beside it and checks that it carries the same packages, no more and no
 * fewer: a floor that lacked one of the function's libraries would flatter nothing but hide it, and
 * one with more would flatter the function.
 */
const buildFloor = async (
  name: string,
  libraries: readonly LibraryImport[],
  functionPackages: Map<string, number>,
  file: string,
) => {
  const result = await build({
    ...esbuildOptions('floor:entry', file),
    plugins: [floorPlugin(floorSources(libraries), PROJECT_ROOT)],
    metafile: true,
  });
  const floorPackages = packageBytes(result.metafile);
  const missing = [...functionPackages.keys()].filter((pkg) => !floorPackages.has(pkg));
  const extra = [...floorPackages.keys()].filter((pkg) => !functionPackages.has(pkg));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `the floor of ${name} differs from it in packages: missing ${missing.join(', ') || 'none'}, extra ${extra.join(', ') || 'none'}`,
    );
  }
  return sizeOf(file);
};

/** The line esbuild ends a bundle with when it writes its map beside it. */
const MAP_LINK = '//# sourceMappingURL=index.js.map\n';

/**
 * The bundle as esbuild builds it without a map: the same bytes but the last line, which links the map
 * (a third build per function cost a third of the bundling's minute, for bytes known in advance).
 */
const writeUnmapped = (file: string, unmappedFile: string) => {
  const text = readFileSync(file, 'utf8');
  if (!text.endsWith(MAP_LINK)) throw new Error(`${file} does not end with its map's link`);
  mkdirSync(path.dirname(unmappedFile), { recursive: true });
  writeFileSync(unmappedFile, text.slice(0, -MAP_LINK.length));
};

/**
 * Bundles every function named (all of them by default) with the stack's esbuild settings, without a
 * source map too, and its floor.
 */
export const buildBundles = async (outDir: string, names?: ReadonlySet<string>): Promise<Bundle[]> => {
  mkdirSync(outDir, { recursive: true });
  const entries = functionEntries().filter(([name]) => names === undefined || names.has(name));
  return Promise.all(
    entries.map(async ([name, entry]): Promise<Bundle> => {
      const source = path.join(PROJECT_ROOT, entry);
      const file = path.join(outDir, name, 'index.js');
      const unmappedFile = path.join(outDir, `${name}-unmapped`, 'index.js');
      const { metafile } = await build({ ...esbuildOptions(source, file), metafile: true });
      writeUnmapped(file, unmappedFile);
      const libraries = libraryImports(
        metafile,
        source,
        bundlingSettings.minify.identifiers ? undefined : readFileSync(file, 'utf8'),
      );
      const floor = await buildFloor(
        name,
        libraries,
        packageBytes(metafile),
        path.join(outDir, `${name}-floor`, 'index.js'),
      );
      return { name, ...sizeOf(file), unmappedFile, libraries, floor };
    }),
  );
};

/** A bench script bundled with the same settings, so that the code it runs is compiled as deployed. */
export const buildScript = async (entry: string, outDir: string): Promise<string> => {
  const file = path.join(outDir, 'index.js');
  await build(esbuildOptions(path.join(PROJECT_ROOT, entry), file));
  return file;
};
