import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** Where `npm run build:cli` writes the command: one file that runs with `node`, the `bin` of cli/package.json. */
export const CLI_FILE = join(__dirname, 'dist', 'secrets.js');

/** Bundles the command line and its packages into `CLI_FILE`, executable, for Node 20 and later. */
export const buildCli = async (outfile: string = CLI_FILE): Promise<string> => {
  await build({
    entryPoints: [join(__dirname, 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o755);
  return outfile;
};

if (require.main === module) {
  buildCli().then(
    (file) => console.log(`built ${file}`),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
