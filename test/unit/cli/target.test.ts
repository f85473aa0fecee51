import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../cli/errors';
import { findSetup, resolveCredentials, SETUP_FILE } from '../../../cli/target';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cli-target-')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Makes `path` (under the test's folder) a folder; answers it. */
const folder = (...path: string[]): string => {
  const made = join(root, ...path);
  mkdirSync(made, { recursive: true });
  return made;
};

/** Writes a `.secrets.json` in `at`; answers its path. */
const setupIn = (at: string): string => {
  const file = join(at, SETUP_FILE);
  writeFileSync(file, JSON.stringify({ project: 'prj_0123456789abcdefABCDEF', environment: 'development' }));
  return file;
};

/** A home folder no test searches from, so that only the boundary under test stops the search. */
const elsewhere = () => folder('some-home');

describe('findSetup (where the search for .secrets.json goes)', () => {
  it('finds the file in the folder it starts from', () => {
    const start = folder('repo');
    const file = setupIn(start);
    expect(findSetup(start, elsewhere())?.file).toBe(file);
  });

  it('finds the nearest file in a folder above, up to the repository’s root itself', () => {
    const repo = folder('repo');
    mkdirSync(join(repo, '.git'));
    const file = setupIn(repo);
    expect(findSetup(folder('repo', 'src', 'deep'), elsewhere())?.file).toBe(file);
  });

  it('does not climb past the folder holding .git', () => {
    setupIn(root);
    const repo = folder('repo');
    mkdirSync(join(repo, '.git'));
    expect(findSetup(folder('repo', 'src'), elsewhere())).toBeUndefined();
  });

  it('does not climb past a folder whose .git is a file (a worktree or a submodule)', () => {
    setupIn(root);
    const worktree = folder('worktree');
    writeFileSync(join(worktree, '.git'), 'gitdir: /elsewhere/.git/worktrees/worktree\n');
    expect(findSetup(folder('worktree', 'src'), elsewhere())).toBeUndefined();
  });

  it('does not climb past the home folder, and finds a file in the home folder itself', () => {
    setupIn(root);
    const home = folder('home', 'ana');
    const start = folder('home', 'ana', 'project');
    expect(findSetup(start, home)).toBeUndefined();
    const file = setupIn(home);
    expect(findSetup(start, home)?.file).toBe(file);
  });

  it('stops at whichever comes first: a repository inside the home folder', () => {
    const home = folder('home');
    setupIn(home);
    const repo = folder('home', 'repo');
    mkdirSync(join(repo, '.git'));
    expect(findSetup(folder('home', 'repo', 'src'), home)).toBeUndefined();
  });
});

describe('resolveCredentials', () => {
  const apiUrl = (url: string) => resolveCredentials({ SECRETS_TOKEN: 'svc_live_x', SECRETS_API_URL: url }).apiUrl;

  it.each([
    ['https://api.example.com/prod/', 'https://api.example.com/prod'],
    ['http://127.0.0.1:3000/api/v1', 'http://127.0.0.1:3000'],
    ['http://127.1.2.3:3000', 'http://127.1.2.3:3000'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
  ])('takes %s', (url, base) => {
    expect(apiUrl(url)).toBe(base);
  });

  it.each([
    'http://example.com',
    'http://127.0.0.1.example.com',
    'http://localhost.example.com',
    'http://0.0.0.0:3000',
    'http://10.0.0.1:3000',
    'http://[::ffff:127.0.0.1]:3000',
    'ftp://127.0.0.1',
  ])('refuses %s as a usage error: http only on a loopback address', (url) => {
    expect(() => apiUrl(url)).toThrow(UsageError);
  });
});
