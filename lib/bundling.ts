import * as path from 'node:path';
import type { BuildOptions } from 'esbuild';

/** The repository root: entries, the lock file and tsconfig.json are resolved from here. */
export const PROJECT_ROOT = path.resolve(__dirname, '..');

/**
 * The one bundling configuration of every Lambda. The stack's NodejsFunction is built from it
 * (`lib/constructs/service-function.ts`) and so is the benchmark (`esbuildOptions` below), so what
 * `npm run bench` measures is what `cdk deploy` ships.
 */
export const bundlingSettings = {
  /**
   * Whitespace and syntax are minified, identifiers are not: a stack trace names its functions
   * without the map, and no `keepNames` helper has to run for every function at load, which
   * lengthened every cold start (`npm run bench`, cold load). Kept identifiers make a larger bundle
   * at no measurable cost at load: V8 parses function bodies lazily.
   */
  minify: { whitespace: true, syntax: true, identifiers: false },
  /** The map ships beside the bundle, so a stack trace can be mapped to the source offline. */
  sourceMap: true,
  /** The map only needs to translate positions; the sources would double its size for nothing. */
  sourcesContent: false,
  target: 'node22',
  /** ESM builds first: the AWS SDK's `module` entry tree-shakes to much less than its CommonJS one. */
  mainFields: ['module', 'main'],
  /** esbuild reads `paths` from here, so `@lib/*` and `@lambdas/*` resolve as they do in tests. */
  tsconfig: path.join(PROJECT_ROOT, 'tsconfig.json'),
} as const;

/**
 * `NODE_OPTIONS` of every function; the bench loads the bundles with it too. `--enable-source-maps`
 * would map stack traces at run time, but it parses every map on load, which lengthens every cold
 * start (`npm run bench`, "source-map tax"), so traces keep their names (identifiers are not
 * minified) and are mapped offline.
 */
export const runtimeNodeOptions = '';

/**
 * The settings NodejsFunction has no property for, as esbuild's own flags: the partial minification
 * (its `minify` is all or nothing, so it stays off).
 */
export const esbuildFlags: Record<string, string | boolean> = {
  '--minify-whitespace': bundlingSettings.minify.whitespace,
  '--minify-syntax': bundlingSettings.minify.syntax,
  '--minify-identifiers': bundlingSettings.minify.identifiers,
};

/** The esbuild options NodejsFunction uses for `entry` with these settings (platform node, CommonJS, SDK bundled). */
export const esbuildOptions = (entry: string, outfile: string): BuildOptions => ({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: bundlingSettings.target,
  minifyWhitespace: bundlingSettings.minify.whitespace,
  minifySyntax: bundlingSettings.minify.syntax,
  minifyIdentifiers: bundlingSettings.minify.identifiers,
  sourcemap: bundlingSettings.sourceMap,
  sourcesContent: bundlingSettings.sourcesContent,
  mainFields: [...bundlingSettings.mainFields],
  tsconfig: bundlingSettings.tsconfig,
  logLevel: 'warning',
});
