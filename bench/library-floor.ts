/**
 * The floor a function is measured against: a bundle of the libraries it imports and nothing else,
 * bundled the same way. What a function imports is read from its own build, so its floor follows it
 * when its libraries change: esbuild's metafile names every package a file of this repository
 * imports, and that file's import statements name what it takes (`import { Logger }`, `z.object` of
 * `import * as z`). The floor imports the same names and keeps them, so its bundle carries the same
 * library code; it sets the libraries up as any function using them must (a Logger, a Metrics and a
 * Tracer, a captured DynamoDB client, a document client, a middy handler with the same Powertools
 * middlewares), and its handler does the libraries' per-call work the warm-CPU harness hands it: the
 * function's own DynamoDB calls, log lines and metric lines, replayed bare.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Metafile, Plugin } from 'esbuild';
import ts from 'typescript';

/** A package entry point a function imports, and what it takes from it. */
export interface LibraryImport {
  /** As the function's code writes it: `@aws-lambda-powertools/logger/middleware`, `zod/mini`. */
  readonly specifier: string;
  /** The bindings it takes (`default` for a default import), sorted; `*` when it needs the whole module. */
  readonly names: readonly string[];
  /** Only code the function requires on first use imports it (the authorizer's jose), never its load. */
  readonly lazy: boolean;
}

const isPackagePath = (file: string) => /(^|\/)node_modules\//.test(file);

/** What one import or re-export statement takes from `specifier`, or undefined when it is another module's or types only. */
const namesOfStatement = (source: ts.SourceFile, statement: ts.Statement, specifier: string): string[] | undefined => {
  if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
    if (statement.moduleSpecifier.text !== specifier) return undefined;
    const clause = statement.importClause;
    if (!clause) return []; // imported for its side effects
    if (clause.isTypeOnly) return undefined;
    const names = clause.name ? ['default'] : [];
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.push(...namespaceMembers(source, bindings.name.text));
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
      }
    }
    return names;
  }
  if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
    if (statement.moduleSpecifier.text !== specifier || statement.isTypeOnly) return undefined;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) return ['*'];
    return clause.elements.filter((element) => !element.isTypeOnly).map((e) => (e.propertyName ?? e.name).text);
  }
  return undefined;
};

/**
 * The members of `import * as ns` the code reads as values (`ns.object`); `*` if it uses the namespace
 * any other way. Types (`ns.ZodMiniString`, `typeof ns.x`) take no code.
 */
const namespaceMembers = (source: ts.SourceFile, namespace: string): string[] => {
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node)) return;
    if (ts.isIdentifier(node) && node.text === namespace) {
      const parent = node.parent;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node) names.push(parent.name.text);
      else if (!ts.isNamespaceImport(parent) && !ts.isQualifiedName(parent)) names.push('*');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
};

/**
 * The libraries a function's bundle imports, from the metafile of its build: every package entry point
 * a file of this repository imports, with what it takes. A package reached only through files the
 * function `require`s on first use is lazy. Given the bundle's text (built with identifiers kept), a
 * name it never mentions was imported but dropped as unused (a command class of the data layer a
 * route never sends), and is left out too.
 */
export const libraryImports = (metafile: Metafile, entry: string, bundleText?: string): LibraryImport[] => {
  const entryKey = Object.keys(metafile.inputs).find((file) => path.resolve(file) === path.resolve(entry));
  if (!entryKey) throw new Error(`${entry} is not among the inputs of its own build`);
  // The files evaluated at load: reached from the entry by import statements alone.
  const atLoad = new Set([entryKey]);
  for (const file of atLoad) {
    for (const edge of metafile.inputs[file]?.imports ?? []) {
      if (edge.kind === 'import-statement' && !edge.external && !isPackagePath(edge.path)) atLoad.add(edge.path);
    }
  }
  const found = new Map<string, { names: Set<string>; lazy: boolean }>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (isPackagePath(file)) continue;
    let source: ts.SourceFile | undefined;
    for (const edge of input.imports) {
      if (edge.external || !isPackagePath(edge.path) || !edge.original) continue;
      source ??= ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const entryPoint = found.get(edge.original) ?? { names: new Set<string>(), lazy: true };
      found.set(edge.original, entryPoint);
      if (atLoad.has(file) && edge.kind === 'import-statement') entryPoint.lazy = false;
      if (edge.kind !== 'import-statement') {
        entryPoint.names.add('*'); // a require() or import() of a package takes all of it
        continue;
      }
      for (const statement of source.statements) {
        for (const name of namesOfStatement(source, statement, edge.original) ?? []) entryPoint.names.add(name);
      }
    }
  }
  // The bundle may carry a name as esbuild renamed it on a collision (name2) or as the package's own
  // module declares what it re-exports (zod's `_minLength` as `minLength`).
  const carried = (name: string) =>
    bundleText === undefined ||
    name === '*' ||
    name === 'default' ||
    new RegExp(`(^|[^\\w$])[_$]*${name}\\d*(?![\\w$])`).test(bundleText);
  return [...found]
    .map(([specifier, { names, lazy }]) => ({ specifier, names: [...names].filter(carried).sort(), lazy }))
    .sort((a, b) => a.specifier.localeCompare(b.specifier));
};

const LOGGER = '@aws-lambda-powertools/logger';
const LOGGER_MIDDLEWARE = '@aws-lambda-powertools/logger/middleware';
const METRICS = '@aws-lambda-powertools/metrics';
const TRACER = '@aws-lambda-powertools/tracer';
const TRACER_MIDDLEWARE = '@aws-lambda-powertools/tracer/middleware';
const DYNAMODB = '@aws-sdk/client-dynamodb';
const DOCUMENTS = '@aws-sdk/lib-dynamodb';
const MIDDY = '@middy/core';

/** The entry module of a floor and, when the function loads some libraries on first use, the module it requires then. */
export interface FloorSources {
  readonly entry: string;
  readonly lazy: string;
}

/**
 * The floor's modules, in JavaScript. Every name the function takes from a library is imported and
 * kept, so the bundle carries the same library code; what the floor sets up is declared here, once,
 * per library entry point, and only for those the function imports.
 */
export const floorSources = (imports: readonly LibraryImport[]): FloorSources => {
  const entry: string[] = [];
  const lazy: string[] = [];
  const aliases = new Map<string, string>();
  const kept: string[] = [];
  const lazyKept: string[] = [];
  imports.forEach((library, index) => {
    const lines = library.lazy ? lazy : entry;
    const keep = library.lazy ? lazyKept : kept;
    const spec = JSON.stringify(library.specifier);
    if (library.names.includes('*')) {
      lines.push(`import * as lib${index} from ${spec};`);
      keep.push(`lib${index}`);
      for (const name of library.names)
        if (name !== '*') aliases.set(`${library.specifier}#${name}`, `lib${index}.${name}`);
      return;
    }
    if (library.names.length === 0) {
      lines.push(`import ${spec};`);
      return;
    }
    const named = library.names.filter((name) => name !== 'default');
    const bindings = [
      ...(library.names.includes('default') ? [`lib${index}_default`] : []),
      ...(named.length > 0 ? [`{ ${named.map((name) => `${name} as lib${index}_${name}`).join(', ')} }`] : []),
    ];
    lines.push(`import ${bindings.join(', ')} from ${spec};`);
    for (const name of library.names) {
      aliases.set(`${library.specifier}#${name}`, `lib${index}_${name}`);
      keep.push(`lib${index}_${name}`);
    }
  });
  // Only what the function loads at load is set up; a lazy library is required, as the function does, on first use.
  const eager = (specifier: string, name: string) =>
    imports.some((library) => library.specifier === specifier && !library.lazy)
      ? aliases.get(`${specifier}#${name}`)
      : undefined;

  entry.push(`export const kept = [${kept.join(', ')}];`);
  if (lazy.length > 0) {
    lazy.push(`export const kept = [${lazyKept.join(', ')}];`);
    entry.push(`export const loadLazy = () => require('floor:lazy');`);
  }
  const Logger = eager(LOGGER, 'Logger');
  const Metrics = eager(METRICS, 'Metrics');
  const Tracer = eager(TRACER, 'Tracer');
  const DynamoDBClient = eager(DYNAMODB, 'DynamoDBClient');
  const DocumentClient = eager(DOCUMENTS, 'DynamoDBDocumentClient');
  const middy = eager(MIDDY, 'default');
  const injectLambdaContext = eager(LOGGER_MIDDLEWARE, 'injectLambdaContext');
  const captureLambdaHandler = eager(TRACER_MIDDLEWARE, 'captureLambdaHandler');
  if (Logger) entry.push(`const logger = new ${Logger}({ serviceName: 'floor' });`);
  if (Metrics) entry.push(`const metrics = new ${Metrics}({ namespace: 'floor', serviceName: 'floor' });`);
  if (Tracer) entry.push(`const tracer = new ${Tracer}({ serviceName: 'floor' });`);
  if (DynamoDBClient) {
    const client = `new ${DynamoDBClient}({})`;
    entry.push(`const dynamo = ${Tracer ? `tracer.captureAWSv3Client(${client})` : client};`);
  }
  if (DynamoDBClient && DocumentClient) entry.push(`const documents = ${DocumentClient}.from(dynamo);`);
  entry.push(`export const clients = [${DynamoDBClient ? 'dynamo' : ''}];`);
  // The command classes the function imports, by name: the harness replays its calls with them.
  const commandsOf = (specifier: string) =>
    imports
      .filter((library) => library.specifier === specifier && !library.lazy)
      .flatMap((library) => library.names.filter((name) => name.endsWith('Command')))
      .map((name) => `${name}: ${aliases.get(`${specifier}#${name}`)}`);
  entry.push(`const lowLevelCommands = { ${commandsOf(DYNAMODB).join(', ')} };`);
  entry.push(`const documentCommands = { ${commandsOf(DOCUMENTS).join(', ')} };`);
  entry.push(`export const commandNames = [...Object.keys(lowLevelCommands), ...Object.keys(documentCommands)];`);
  entry.push(
    DynamoDBClient
      ? [
          'const send = (name, input) => name in documentCommands',
          `  ? ${DocumentClient ? 'documents' : 'dynamo'}.send(new documentCommands[name](input))`,
          '  : dynamo.send(new lowLevelCommands[name](input));',
        ].join('\n')
      : `const send = (name) => Promise.reject(new Error(\`no DynamoDB client to send \${name}\`));`,
    'const call = async (event) => {',
    '  for (const [name, input] of event.calls) await send(name, input);',
    Logger ? '  for (const [level, message, attributes] of event.logs) logger[level](message, attributes);' : '',
    Metrics
      ? [
          '  for (const line of event.metrics) {',
          // A single metric's instance writes its line as the metric is added.
          '    const target = line.single ? metrics.singleMetric() : metrics;',
          '    for (const [name, value] of line.dimensions) target.addDimension(name, value);',
          '    for (const [name, unit, value] of line.values) target.addMetric(name, unit, value);',
          '    if (!line.single) metrics.publishStoredMetrics();',
          '  }',
        ].join('\n')
      : '',
    '  return {};',
    '};',
  );
  // The same middlewares as the function, in the same order; no early-timeout timer, as none of ours runs one.
  const handler = [
    middy ? `${middy}(call, { timeoutEarlyInMillis: 0 })` : 'call',
    ...(middy && captureLambdaHandler && Tracer
      ? [`.use(${captureLambdaHandler}(tracer, { captureResponse: false }))`]
      : []),
    ...(middy && injectLambdaContext && Logger ? [`.use(${injectLambdaContext}(logger))`] : []),
  ];
  entry.push(`export const handler = ${handler.join('')};`);
  return { entry: entry.filter(Boolean).join('\n'), lazy: lazy.join('\n') };
};

/** An esbuild plugin that serves a floor's modules, resolving their packages from `resolveDir` as the function's are. */
export const floorPlugin = (sources: FloorSources, resolveDir: string): Plugin => ({
  name: 'floor',
  setup(build) {
    build.onResolve({ filter: /^floor:/ }, (args) => ({ path: args.path, namespace: 'floor' }));
    build.onLoad({ filter: /.*/, namespace: 'floor' }, (args) => ({
      contents: args.path === 'floor:lazy' ? sources.lazy : sources.entry,
      loader: 'js',
      resolveDir,
    }));
  },
});

/** The packages a build's output carries, by name (`@smithy/core`, `zod`), with their bytes in it. */
export const packageBytes = (metafile: Metafile): Map<string, number> => {
  const bytes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [file, input] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
      if (name) bytes.set(name, (bytes.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  return bytes;
};
