const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;
const { extract, parse } = require('jest-docblock');

/**
 * Whether a file says, with `@slow` in the comment that opens it, that it runs for minutes whatever
 * its size: a property per route, a world per route and credential, a token left to expire.
 */
const markedSlow = (test) => 'slow' in parse(extract(readFileSync(test.path, 'utf8')));

/**
 * Jest's order (files that failed last time first, then the slowest by the timings it keeps), with a
 * better guess for files it has no timing of, as in a clean clone. Jest starts those largest first, which
 * put `test/infra/app.test.ts`, a few lines that require every infra check and run for over a minute,
 * among the last, alone on one worker at the end, and left bad-input and work-per-request (short files
 * that walk every route) to run side by side for the last five minutes of a clean clone's run. Here
 * files without a timing start `@slow` ones first, then by their project's time limit per test (infra
 * and browser, which synthesize the app or drive Chromium, before integration, before unit), and by size
 * within a project, as jest would.
 */
class SlowProjectsFirst extends Sequencer {
  sort(tests) {
    const byJest = super.sort(tests);
    const group = (test) => (this.hasFailed(test) ? 0 : test.duration == null ? 1 : 2);
    // Each file's place, worked out once: the comparator runs many times a file, and `@slow` reads it.
    const keys = new Map(
      byJest.map((test) => {
        const untimed = group(test) === 1;
        const slow = untimed && markedSlow(test) ? 0 : 1;
        const limit = untimed ? (test.context.config.globals.TEST_TIMEOUT_MS ?? 0) : 0;
        return [test, [group(test), slow, -limit]];
      }),
    );
    const by = (a, b) => {
      const [x, y] = [keys.get(a), keys.get(b)];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    };
    // Stable: within a group, and among files alike in all three, jest's order stays.
    return [...byJest].sort(by);
  }
}

module.exports = SlowProjectsFirst;
