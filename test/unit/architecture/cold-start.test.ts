import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { routes } from '@contract/routes';
import { BUNDLE_ENV } from '../../../bench/fixtures';

const ROOT = join(__dirname, '../../..');

/**
 * Libraries a function loads with the first request that needs them, never when its module loads:
 * a route's zod schemas with its contract (lambdas/http/api-middleware.ts), the authorizer's jose with
 * its first session (lambdas/authorizer/jose.ts). The bench's cold load measures the difference; this
 * says which import brought one back.
 */
const LAZY_LIBRARIES = ['zod', 'jose'];

it('loads no zod or jose when a function’s module loads, for every route and the authorizer', () => {
  const modules = [
    ...routes.map((route) => join(ROOT, 'lambdas/handlers', `${route.handler}.ts`)),
    join(ROOT, 'lambdas/authorizer/handler.ts'),
  ];
  const script = `for (const file of ${JSON.stringify(modules)}) require(file);
const loaded = Object.keys(require.cache);
process.stdout.write(JSON.stringify(${JSON.stringify(LAZY_LIBRARIES)}.filter((name) => loaded.some((file) => file.includes('/node_modules/' + name + '/')))));`;
  const child = spawnSync(process.execPath, ['--no-warnings', '--import', 'tsx', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...BUNDLE_ENV },
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  expect(JSON.parse(child.stdout)).toEqual([]);
});
