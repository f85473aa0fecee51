/**
 * `npm run docs`: writes the README's API and error tables from the route contracts
 * (bin/readme-tables.ts), between their marker comments. `npm run docs -- --check` changes nothing and
 * exits 1 when README.md is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderTables, staleTables, withTables } from './readme-tables';

const readmePath = resolve(__dirname, '..', 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const tables = renderTables();
const stale = staleTables(readme, tables);

if (process.argv.includes('--check')) {
  if (stale.length) {
    console.error(`README.md is out of date with the route contracts (${stale.join(', ')}): run \`npm run docs\`.`);
    process.exitCode = 1;
  }
} else if (stale.length) {
  writeFileSync(readmePath, withTables(readme, tables));
  console.log(
    `README.md: ${stale.join(' and ')} table${stale.length > 1 ? 's' : ''} rewritten from the route contracts.`,
  );
} else {
  console.log('README.md: the tables already match the route contracts.');
}
