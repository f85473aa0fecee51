import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';

const DASHBOARD_ROOT = __dirname;

/** The files the build writes, relative to its output folder; `index.html` loads the others. */
export const DASHBOARD_FILES = ['index.html', 'app.js', 'app.css'] as const;

/**
 * Builds the dashboard's static files into `outDir`: one minified script (Preact, the OIDC client and
 * the screens), one stylesheet and the page. `config.json` is not among them: whoever serves the files
 * writes it (the stack next to them in S3, `npm start` from its own settings).
 */
export const buildDashboard = (outDir: string): void => {
  mkdirSync(outDir, { recursive: true });
  buildSync({
    entryPoints: { app: path.join(DASHBOARD_ROOT, 'src/main.tsx') },
    outdir: outDir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome120', 'firefox120', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: path.join(DASHBOARD_ROOT, 'tsconfig.json'),
    legalComments: 'none',
    logLevel: 'silent',
  });
  copyFileSync(path.join(DASHBOARD_ROOT, 'src/app.css'), path.join(outDir, 'app.css'));
  copyFileSync(path.join(DASHBOARD_ROOT, 'src/index.html'), path.join(outDir, 'index.html'));
};
