const Sequencer = require('@jest/test-sequencer').default;

/**
 * Jest's order (files that failed last time first, then the slowest by the timings it keeps), with a
 * better guess for files it has no timing of, as in a clean clone. Jest starts those largest first, which
 * put `test/infra/app.test.ts`, a few lines that require every infra check and run for over a minute,
 * among the last, alone on one worker at the end. Here files without a timing start by their project's
 * time limit per test, longest first (infra and browser, which synthesize the app or drive Chromium,
 * before integration, before unit), and by size within a project, as jest would.
 */
class SlowProjectsFirst extends Sequencer {
  sort(tests) {
    const byJest = super.sort(tests);
    const group = (test) => (this.hasFailed(test) ? 0 : test.duration == null ? 1 : 2);
    const limit = (test) => (group(test) === 1 ? (test.context.config.globals.TEST_TIMEOUT_MS ?? 0) : 0);
    // Stable: within a group, and among files of the same limit, jest's order stays.
    return [...byJest].sort((a, b) => group(a) - group(b) || limit(b) - limit(a));
  }
}

module.exports = SlowProjectsFirst;
