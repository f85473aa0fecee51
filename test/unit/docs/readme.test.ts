import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorText } from '@contract/errors';
import { routes } from '@contract/routes';
import { PROJECT_ROOT } from '@lib/bundling';
import { CONTEXT_KEYS } from '@lib/config';
import {
  API_TABLE_SHORTHANDS,
  DOC_TABLES,
  type DocPage,
  markedSection,
  renderTables,
  SERVICE_ACCOUNT_MARK,
  staleTables,
  withTables,
} from '../../../bin/doc-tables';

const read = (file: string): string => readFileSync(join(PROJECT_ROOT, file), 'utf8');

describe.each(Object.keys(DOC_TABLES) as DocPage[])('%s', (page) => {
  it('has the tables the route contracts give', () => {
    const stale = staleTables(read(page), renderTables(page));
    expect(
      stale.length === 0
        ? 'up to date'
        : `${page}'s ${stale.join(' and ')} table differs from the route contracts: run \`npm run docs\``,
    ).toBe('up to date');
  });
});

describe('README.md', () => {
  it('stays a user’s page: at most 20,000 bytes', () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThanOrEqual(20_000);
  });
});

describe('the generated tables', () => {
  const tables = { ...renderTables('README.md'), ...renderTables('docs/api.md') };
  const routeKeys = routes.map((route) => `| ${route.method} \`${route.path.replace(/^\/api\/v1/, '')}\``);

  it('routes: lists every route once, by method and path under /api/v1', () => {
    const rows = (tables.routes ?? '').split('\n').slice(2);
    expect(rows).toHaveLength(routes.length);
    expect(rows.map((row) => row.split(' | ').slice(0, 2).join(' '))).toEqual(routeKeys);
  });

  it('api: lists every route once, by path under /api/v1 and its method’s column, with its token scope and status', () => {
    const [header = '', , ...rows] = (tables.api ?? '').split('\n');
    const methods = header
      .split('|')
      .slice(2, -1)
      .map((cell) => cell.trim());
    const fullPath = (written: string): string => {
      const short = API_TABLE_SHORTHANDS.find(([name]) => written === name || written.startsWith(`${name}/`));
      return short === undefined ? written : fullPath(`${short[1]}${written.slice(short[0].length)}`);
    };
    const listed = rows
      .filter((row) => row.startsWith('|'))
      .flatMap((row) => {
        const [written = '', ...cells] = row
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim());
        const path = `\`${fullPath(written.slice(1, -1))}\``;
        return cells.flatMap((cell, column) => (cell === '' ? [] : [{ key: `| ${methods[column]} ${path}`, cell }]));
      });
    expect(listed.map(({ key }) => key).sort()).toEqual([...routeKeys].sort());
    for (const route of routes) {
      const { cell } =
        listed.find(({ key }) => key === `| ${route.method} \`${route.path.replace(/^\/api\/v1/, '')}\``) ?? {};
      expect(cell).toBe(
        `${route.signIn ? 'no credential' : route.tokenScope === null ? 'no token (403)' : `\`${route.tokenScope}\``}, ${route.success.created === undefined ? '' : '201 or '}${route.success.status}${route.serviceAccounts ? `, ${SERVICE_ACCOUNT_MARK}` : ''}`,
      );
    }
  });

  it('name every error text of the contract', () => {
    for (const text of Object.values(ErrorText)) expect(tables.errors).toContain(`\`${text}\``);
  });

  it('are written between the markers, leaving the rest of the page as it was', () => {
    const pageTables = renderTables('docs/api.md');
    const before =
      '# Title\n\n<!-- routes:start -->\nold\n<!-- routes:end -->\n\ntext\n<!-- errors:start -->\n<!-- errors:end -->\n';
    const after = withTables(before, pageTables);
    expect(markedSection(after, 'routes')).toBe(pageTables.routes);
    expect(markedSection(after, 'errors')).toBe(pageTables.errors);
    expect(after.startsWith('# Title\n\n<!-- routes:start -->\n')).toBe(true);
    expect(after).toContain('<!-- routes:end -->\n\ntext\n<!-- errors:start -->');
    expect(staleTables(after, pageTables)).toEqual([]);
    expect(staleTables(before, pageTables)).toEqual(['routes', 'errors']);
  });

  it('refuse a page without the markers', () => {
    expect(() => withTables('# Title\n', renderTables('README.md'))).toThrow('no <!-- api:start -->');
  });
});

describe('docs/operations.md', () => {
  it('documents every CDK context key lib/config.ts reads', () => {
    const operations = read('docs/operations.md');
    const documented = [...operations.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]);
    expect(CONTEXT_KEYS.filter((key) => !documented.includes(key))).toEqual([]);
  });
});
