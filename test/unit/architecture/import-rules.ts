import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

/** The repository root. */
export const ROOT = join(__dirname, '../../..');

/** One import of one source file, as written and as resolved to a repository path (or a package). */
export interface ImportEdge {
  readonly from: string;
  readonly specifier: string;
  /** A repository path without extension, e.g. `lambdas/data/keys`, or `undefined` for a package. */
  readonly to: string | undefined;
}

const ALIASES: Readonly<Record<string, string>> = {
  '@client/': 'client/',
  '@contract/': 'contract/',
  '@lib/': 'lib/',
  '@lambdas/': 'lambdas/',
  '@test/': 'test/',
};

/** Where an import specifier of `from` leads inside the repository, or `undefined` for a package. */
export const resolveSpecifier = (from: string, specifier: string): string | undefined => {
  for (const [alias, folder] of Object.entries(ALIASES)) {
    if (specifier.startsWith(alias)) return folder + specifier.slice(alias.length);
  }
  if (specifier.startsWith('.')) return normalize(join(dirname(from), specifier));
  return undefined;
};

/**
 * A rule: files under `layer` must not import what `forbidden` matches, and, when `onlyFrom` is given,
 * nothing of the repository outside it (packages stay allowed).
 */
export interface LayerRule {
  readonly layer: string;
  readonly forbidden?: readonly string[];
  /** The only repository folders (each ending in `/`) the layer may import from. */
  readonly onlyFrom?: readonly string[];
  readonly why: string;
}

/** The layers above the data layer: the use cases, and every entry point that composes or calls them. */
const ABOVE_THE_DATA = [
  'lambdas/http/',
  'lambdas/routes/',
  'lambdas/use-cases/',
  'lambdas/authorizer/',
  'lambdas/events/',
  'lambdas/composition/',
] as const;

/**
 * Dependencies point one way: `lib/` (the CDK app) and `lambdas/` (the functions) each depend on
 * `contract/` (what both share) and never on each other; `contract/` depends on neither. The dashboard's
 * screens (`dashboard/src/`) know only the typed client (`client/`), `contract/` and their packages; the
 * typed client knows only its own folder, its types generated from the API document; its build (`dashboard/build.ts`) is
 * tooling that the app and the local runtime call, never the other way round. The smoke test (`smoke/`)
 * knows only `contract/`, and the command line (`cli/`) only `contract/` and the API client (`client/`). Inside `lambdas/`, the
 * domain knows no AWS shape, the data layer no HTTP, and the HTTP edge no data client; use cases get
 * their stores as ports, wired to the repositories in `lambdas/composition/`, which only entry points
 * import.
 * A forbidden entry ending in `/` is a folder, one ending in `.ts` a file; any other is a package name
 * prefix.
 */
export const layerRules: readonly LayerRule[] = [
  {
    layer: 'contract/',
    forbidden: ['lib/', 'lambdas/', 'local/', 'bin/', 'bench/', 'test/', 'dashboard/', 'client/'],
    why: 'shared by both sides',
  },
  {
    layer: 'lib/',
    forbidden: ['lambdas/', 'local/', 'bench/', 'test/', 'dashboard/src/'],
    why: 'the CDK app reaches code only through contract/ (and builds the dashboard with dashboard/build)',
  },
  {
    layer: 'lambdas/',
    forbidden: ['lib/', 'local/', 'bench/', 'test/', 'dashboard/', 'client/'],
    why: 'the functions reach the app only through contract/',
  },
  {
    layer: 'dashboard/build',
    forbidden: ['lib/', 'lambdas/', 'local/', 'bin/', 'bench/', 'test/'],
    why: 'the build is tooling the app and the local runtime call',
  },
  {
    layer: 'dashboard/src/',
    onlyFrom: ['client/', 'contract/', 'dashboard/src/'],
    why: 'the screens run in the browser and share only the typed client and contract/ with the service',
  },
  {
    layer: 'client/',
    onlyFrom: ['client/'],
    why: 'the typed client knows the service only by its generated API types, so it runs in Node and browsers alike',
  },
  {
    layer: 'cli/',
    onlyFrom: ['cli/', 'client/', 'contract/'],
    why: 'the command line reaches the service only through the typed API client, as any program does',
  },
  {
    layer: 'smoke/',
    onlyFrom: ['contract/', 'smoke/'],
    why: 'the smoke test sees a deployment as any client does: over HTTP, knowing only the contracts',
  },
  {
    layer: 'lambdas/domain/',
    forbidden: ['lambdas/data/', ...ABOVE_THE_DATA, '@aws-sdk/', 'aws-lambda', '@middy/'],
    why: 'the rules know no AWS or HTTP shape',
  },
  {
    layer: 'lambdas/data/',
    forbidden: [...ABOVE_THE_DATA],
    why: 'the data layer serves the use cases, not the edge',
  },
  {
    layer: 'lambdas/use-cases/',
    forbidden: [
      'lambdas/http/',
      'lambdas/routes/',
      'lambdas/authorizer/',
      'lambdas/events/',
      'lambdas/composition/',
      'lambdas/data/',
      'lambdas/crypto/key-wrapper.ts',
      'lambdas/crypto/kms-key-wrapper.ts',
      'lambdas/crypto/local-key-wrapper.ts',
    ],
    why: 'a use case knows no entry point, and reaches the table and the key wrapper only through the ports it is given',
  },
  {
    layer: 'lambdas/crypto/',
    forbidden: ['lambdas/data/', ...ABOVE_THE_DATA],
    why: 'encryption knows no table and no edge: it is given bytes and keys, and answers bytes',
  },
  { layer: 'lambdas/http/', forbidden: ['lambdas/data/', 'lambdas/routes/'], why: 'the HTTP edge calls use cases' },
  ...['lambdas/', 'dashboard/src/'].map((layer) => ({
    layer,
    forbidden: ['contract/routes.ts', 'contract/route-table.ts'],
    why: 'the route list reads every contract from disk, in Node; code that runs in a function or a browser imports the contracts it uses',
  })),
];

/** Whether `edge` leads into the folder `entry` (ending in `/`) of the repository. */
const leadsInto = (edge: ImportEdge, entry: string): boolean =>
  edge.to !== undefined && `${edge.to}/`.startsWith(entry);

/** Every import that breaks a rule, as one line each. */
export const violations = (edges: readonly ImportEdge[], rules: readonly LayerRule[] = layerRules): string[] =>
  edges.flatMap((edge) =>
    rules
      .filter((rule) => edge.from.startsWith(rule.layer))
      .filter(
        (rule) =>
          (rule.forbidden ?? []).some((entry) =>
            entry.endsWith('.ts')
              ? edge.to !== undefined && `${edge.to.replace(/\.ts$/, '')}.ts` === entry
              : entry.endsWith('/') && !entry.startsWith('@')
                ? leadsInto(edge, entry)
                : edge.to === undefined && edge.specifier.startsWith(entry),
          ) ||
          (rule.onlyFrom !== undefined &&
            edge.to !== undefined &&
            !rule.onlyFrom.some((entry) => leadsInto(edge, entry))),
      )
      .map((rule) => `${edge.from} imports ${edge.specifier} (${rule.layer}: ${rule.why})`),
  );

const sourceFiles = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    // Build output (cli/dist) is bundled packages, not source of the layer.
    if (entry.isDirectory()) return entry.name === 'dist' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(tsx?|cjs|js)$/.test(entry.name) ? [path] : [];
  });

/** The imports of every source file under `folders` (static, dynamic and `require`), as TypeScript reads them. */
export const importGraph = (folders: readonly string[]): ImportEdge[] =>
  folders.flatMap(sourceFiles).flatMap((file) =>
    ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true).importedFiles.map(({ fileName }) => ({
      from: relative(ROOT, join(ROOT, file)),
      specifier: fileName,
      to: resolveSpecifier(file, fileName),
    })),
  );
