import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { version } from '../../cli/package.json';

/**
 * The `secrets` command as docs/cli.md installs it: `npm run pack:cli`, then `npm install -g` of the
 * tarball, here into a folder of its own, with no registry and an empty npm cache. What is installed
 * is a copy that needs nothing of the clone: it runs after the tarball is gone, from another folder.
 */

const ROOT = resolve(__dirname, '../..');
const TEST_MS = 120_000;

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'cli-package-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const npm = (args: readonly string[], cwd: string) =>
  execFileSync('npm', [...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: join(work, 'npm-cache'), npm_config_offline: 'true' },
  });

describe('the packed secrets command', () => {
  it(
    'installs from its tarball without the registry and runs once the tarball and the clone’s build are gone',
    () => {
      npm(['run', 'pack:cli', '--silent'], ROOT);
      const tarball = join(work, `secrets-cli-${version}.tgz`);
      renameSync(join(ROOT, 'cli', 'dist', `secrets-cli-${version}.tgz`), tarball);
      // The one bundled file and the manifest, which names no dependency to fetch.
      const contents = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
      expect(contents.split('\n').filter(Boolean).sort()).toEqual(['package/dist/secrets.js', 'package/package.json']);

      const prefix = join(work, 'prefix');
      npm(['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball], work);
      rmSync(tarball);
      const command = join(prefix, 'bin', 'secrets');
      // A copy in the prefix, not a link back to the clone (what `npm install -g ./cli` makes).
      expect(realpathSync(command).startsWith(realpathSync(prefix))).toBe(true);

      const elsewhere = mkdtempSync(join(work, 'elsewhere-'));
      const run = (args: readonly string[]) =>
        spawnSync(command, [...args], {
          cwd: elsewhere,
          encoding: 'utf8',
          env: { PATH: dirname(process.execPath), HOME: elsewhere },
        });
      const help = run(['--help']);
      expect({ status: help.status, stderr: help.stderr }).toEqual({ status: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: secrets \[options\] \[command\]/);
      expect(run(['--version']).stdout).toBe(`${version}\n`);
      // A command that reaches its own code: no project, a usage error in its words.
      const list = run(['list']);
      expect({ status: list.status, stderr: list.stderr }).toEqual({
        status: 2,
        stderr:
          'error: SECRETS_TOKEN is not set: create an API token in the dashboard and export it (or set SECRETS_SERVICE_ACCOUNT to sign in as a service account)\n',
      });
    },
    TEST_MS,
  );
});
