import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorText } from '@contract/errors';
import { routes } from '@contract/routes';
import { PROJECT_ROOT } from '@lib/bundling';
import { CONTEXT_KEYS } from '@lib/config';
import { markedSection, renderTables, staleTables, withTables } from '../../../bin/readme-tables';

const read = (file: string): string => readFileSync(join(PROJECT_ROOT, file), 'utf8');

describe('README.md', () => {
  const readme = read('README.md');

  it('has the API and error tables the route contracts give', () => {
    const stale = staleTables(readme);
    expect(
      stale.length === 0
        ? 'up to date'
        : `README.md's ${stale.join(' and ')} table differs from the route contracts: run \`npm run docs\``,
    ).toBe('up to date');
  });

  it('stays a user’s page: at most 20,000 bytes', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(20_000);
  });
});

describe('the generated tables', () => {
  const tables = renderTables();

  it('list every route once, by method and path under /api/v1', () => {
    const rows = tables.api.split('\n').slice(2);
    expect(rows).toHaveLength(routes.length);
    expect(rows.map((row) => row.split(' | ').slice(0, 2).join(' '))).toEqual(
      routes.map((route) => `| ${route.method} \`${route.path.replace(/^\/api\/v1/, '')}\``),
    );
  });

  it('name every error text of the contract', () => {
    for (const text of Object.values(ErrorText)) expect(tables.errors).toContain(`\`${text}\``);
  });

  it('are written between the markers, leaving the rest of the README as it was', () => {
    const before =
      '# Title\n\n<!-- api:start -->\nold\n<!-- api:end -->\n\ntext\n<!-- errors:start -->\n<!-- errors:end -->\n';
    const after = withTables(before, tables);
    expect(markedSection(after, 'api')).toBe(tables.api);
    expect(markedSection(after, 'errors')).toBe(tables.errors);
    expect(after.startsWith('# Title\n\n<!-- api:start -->\n')).toBe(true);
    expect(after).toContain('<!-- api:end -->\n\ntext\n<!-- errors:start -->');
    expect(staleTables(after, tables)).toEqual([]);
    expect(staleTables(before, tables)).toEqual(['api', 'errors']);
  });

  it('refuse a README without the markers', () => {
    expect(() => withTables('# Title\n', tables)).toThrow('README.md has no <!-- api:start -->');
  });
});

describe('docs/operations.md', () => {
  it('documents every CDK context key lib/config.ts reads', () => {
    const operations = read('docs/operations.md');
    const documented = [...operations.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]);
    expect(CONTEXT_KEYS.filter((key) => !documented.includes(key))).toEqual([]);
  });
});
