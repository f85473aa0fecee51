/**
 * `npm run docs`: writes the tables the route contracts give (bin/doc-tables.ts) between their marker
 * comments: the README's API table, docs/api.md's route and error tables; and the typed client's
 * types (bin/client-types.ts), which the same contracts give. `npm run docs -- --check` changes
 * nothing and exits 1 when a page or the types are out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { syncClientTypes } from './client-types';
import { DOC_TABLES, type DocPage, renderTables, staleTables, withTables } from './doc-tables';

const check = process.argv.includes('--check');

for (const page of Object.keys(DOC_TABLES) as DocPage[]) {
  const path = resolve(__dirname, '..', page);
  const text = readFileSync(path, 'utf8');
  const tables = renderTables(page);
  const stale = staleTables(text, tables);
  if (check) {
    if (stale.length) {
      console.error(`${page} is out of date with the route contracts (${stale.join(', ')}): run \`npm run docs\`.`);
      process.exitCode = 1;
    }
  } else if (stale.length) {
    try {
      writeFileSync(path, withTables(text, tables));
    } catch (error) {
      throw new Error(`${page}: ${(error as Error).message}`);
    }
    console.log(
      `${page}: ${stale.join(' and ')} table${stale.length > 1 ? 's' : ''} rewritten from the route contracts.`,
    );
  } else {
    console.log(`${page}: the tables already match the route contracts.`);
  }
}

void syncClientTypes(check, 'npm run docs');
