import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { synthesize } from '@test/infra/synth';

/**
 * cfn-lint (AWS's CloudFormation linter, a Python command) over every template the app synthesizes:
 * the root stack's and each nested stack's (`*.nested.template.json`), whatever their number. It is no
 * npm package, so the test runs it when the command is installed and says plainly when it is not.
 */

/** cfn-lint's version line, or `undefined` when the command is not on PATH. */
const cfnLintVersion = (): string | undefined => {
  const probe = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
  return probe.error ? undefined : `${probe.stdout}${probe.stderr}`.trim();
};

/**
 * Generous: the synth and cfn-lint (which loads its whole resource specification) take minutes together
 * on a busy two-core machine (docs/performance.md); a tighter limit would fail on the machine, not the templates.
 */
const LINT_MS = 900_000;

describe('the synthesized templates', () => {
  it(
    'pass cfn-lint with no error, when it is installed',
    () => {
      const version = cfnLintVersion();
      if (version === undefined) {
        // One plain line in the run's output, not a test that looks as if it had checked anything.
        process.stderr.write('cfn-lint is not installed: skipped\n');
        return;
      }
      const { assemblyDirectory } = synthesize();
      const templates = readdirSync(assemblyDirectory)
        .filter((name) => name.endsWith('.template.json'))
        .map((name) => join(assemblyDirectory, name));
      expect(templates.length).toBeGreaterThan(0);
      // Errors only (`E…` rules): warnings and informational findings are advice, not faults.
      const lint = spawnSync(
        'cfn-lint',
        ['--format', 'parseable', '--non-zero-exit-code', 'error', '--', ...templates],
        {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      const errors = lint.stdout.split('\n').filter((line) => /:E\d+:/.test(line));
      expect({ version, errors, stderr: lint.stderr.trim(), status: lint.status }).toEqual({
        version,
        errors: [],
        stderr: '',
        status: 0,
      });
    },
    LINT_MS,
  );
});
