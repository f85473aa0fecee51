import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The app's infrastructure checks, a topic per module of `checks/`, run as one file: each topic
 * synthesizes the app, and within one process loading the CDK is paid once and each context's app is
 * synthesized once (`synthesize` keeps it), where a file per topic paid for both every time.
 * `service-stack.test.ts`, which bundles every function, is a file of its own, so the two run side by
 * side. One topic: `npx jest --selectProjects infra --testPathPatterns app -t '<topic>'`.
 *
 * Each topic is required inside its `describe`, so its hooks (a `beforeAll` synthesizing its variants)
 * belong to its own block; every module of the folder is a topic.
 */
const checks = join(__dirname, 'checks');

for (const file of readdirSync(checks).sort()) {
  describe(file.replace(/\.ts$/, ''), () => {
    require(join(checks, file));
  });
}
