import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';

const SOURCE = path.join(__dirname, 'src');

/**
 * The dashboard's static files by name (`index.html`, `app.js`, `app.css`): one minified script
 * (Preact, the OIDC client and the screens), one stylesheet and the page. `config.json` is not among
 * them: whoever serves the files writes it (the stack next to them in S3, `npm start` from its own
 * settings), so one build serves every deployment.
 */
export const dashboardFiles = (): ReadonlyMap<string, Uint8Array> => {
  const { outputFiles } = buildSync({
    entryPoints: { app: path.join(SOURCE, 'main.tsx') },
    outdir: '/',
    write: false,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome120', 'firefox120', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: path.join(__dirname, 'tsconfig.json'),
    legalComments: 'none',
    logLevel: 'silent',
  });
  return new Map([
    ...outputFiles.map((file) => [path.basename(file.path), file.contents] as const),
    ['app.css', readFileSync(path.join(SOURCE, 'app.css'))],
    ['index.html', readFileSync(path.join(SOURCE, 'index.html'))],
  ]);
};

/** Writes the dashboard's static files into `outDir` (the stack's asset bundling). */
export const buildDashboard = (outDir: string): void => {
  mkdirSync(outDir, { recursive: true });
  for (const [name, contents] of dashboardFiles()) writeFileSync(path.join(outDir, name), contents);
};
