import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../../..');

/** What `npm run lint` prints, both streams together, and its exit code. */
const lint = async (): Promise<{ output: string; code: number }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)(resolve(ROOT, 'node_modules/.bin/biome'), ['check', '.'], {
      cwd: ROOT,
    });
    return { output: `${stdout}${stderr}`, code: 0 };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: number };
    return { output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`, code: failed.code ?? 1 };
  }
};

describe('npm run lint', () => {
  it('prints its one summary line: no warning, no note and no deprecation notice ahead of the tests', async () => {
    const { output, code } = await lint();
    expect(code).toBe(0);
    expect(output.trim()).toMatch(/^Checked \d+ files in [\d.]+m?s\. No fixes applied\.$/);
  });
});
