import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { changesLoading, injectableSecrets } from '../../../cli/run-env';

describe('injectableSecrets', () => {
  it('leaves out names that change how programs load, in any case, unless allowed', () => {
    const values = { LD_PRELOAD: 'x', dyld_insert_libraries: 'y', Path: 'z', API_KEY: 'k', GIT_CONFIG_KEY_0: 'c' };
    expect(injectableSecrets(values, new Set(['Path']))).toEqual({
      inject: { Path: 'z', API_KEY: 'k' },
      skipped: ['GIT_CONFIG_KEY_0', 'LD_PRELOAD', 'dyld_insert_libraries'],
    });
  });

  it('treats every name docs/cli.md lists as one, and no ordinary name', () => {
    const security = readFileSync(join(__dirname, '../../../docs/cli.md'), 'utf8').split('## Security')[1] ?? '';
    const listed = (/The list \(`cli\/run-env.ts`\)[^:]*:([\s\S]*?)Variables you set/.exec(security)?.[1] ?? '')
      .match(/`[A-Z_0-9*]+`/g)
      ?.map((name) => name.replace(/`/g, '').replace('*', 'X'));
    expect(listed?.length).toBeGreaterThan(40);
    for (const name of listed ?? []) expect(changesLoading(name)).toBe(true);
    // npm reads its configuration in any case: npm_config_node_options becomes its scripts' NODE_OPTIONS.
    for (const name of ['npm_config_node_options', 'GOFLAGS', 'PS1']) expect(changesLoading(name)).toBe(true);
    for (const name of ['API_KEY', 'DATABASE_URL', 'HOME', 'PATHWAY', 'NODE_ENV'])
      expect(changesLoading(name)).toBe(false);
  });
});
