import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../architecture/import-rules';

// bin/client-types.ts loads openapi-typescript, whose ES modules Jest's CommonJS runtime cannot load:
// the check runs in plain Node.
describe('client/api-types.ts', () => {
  it('is what openapi-typescript generates from the route contracts now (`npm run generate:client`)', () => {
    const run = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), ['bin/generate-client.ts', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('already matches the route contracts');
  });
});
