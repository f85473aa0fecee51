/** Jest projects per test tier; `npm test` runs them all. */
const os = require('node:os');
const esmPackages = ['@middy', 'jose', 'zod', 'oauth2-mock-server', 'is-plain-obj'].join('|');

// SWC strips the types and writes CommonJS; tsc checks them (npm run typecheck). ts-jest transpiled with
// TypeScript itself, at twelve times SWC's CPU for the same files (docs/performance.md, "The tests compiled by SWC").
const swc = (syntax) => [
  '@swc/jest',
  { jsc: { parser: { syntax }, target: 'es2022' }, module: { type: 'commonjs' }, sourceMaps: 'inline' },
];

const base = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc('typescript'), '^.+\\.m?js$': swc('ecmascript') },
  transformIgnorePatterns: [`node_modules/(?!(${esmPackages})/)`],
  moduleNameMapper: {
    '^@client/(.*)$': '<rootDir>/client/$1',
    '^@contract/(.*)$': '<rootDir>/contract/$1',
    '^@lib/(.*)$': '<rootDir>/lib/$1',
    '^@lambdas/(.*)$': '<rootDir>/lambdas/$1',
    '^@test/(.*)$': '<rootDir>/test/$1',
  },
};

/**
 * A generous time limit per tier (test/test-timeout.ts applies it): CI machines are 2-core and busy,
 * and a test must fail on what it checks, never on how fast the machine is. Jest reads `testTimeout`
 * only from the root config, not per project, hence the global.
 */
const timeout = (ms) => ({ globals: { TEST_TIMEOUT_MS: ms }, setupFilesAfterEnv: ['<rootDir>/test/test-timeout.ts'] });

module.exports = {
  // Jest's default is one worker fewer than the cores, i.e. one on a 2-core machine. A file spends much of its
  // time waiting (on DynamoDB Local, a spawned npm start or CLI, Chromium, a timer that must run out), so one
  // worker more than the cores keeps them busy: three took the suite from 704-735 s to 580 s on this 2-core
  // machine (docs/performance.md, "Three workers, and where the suite's time goes"). Every file uses its own
  // ids (and the files that read a whole table their own table), so files may run at once; the test services
  // wait for DynamoDB Local as npm start does (test/integration/harness.ts), so its slower answers under
  // load are not failures.
  maxWorkers: os.availableParallelism() + 1,
  // A worker keeps what each file leaves in its heap (the services, SDK clients and modules it loaded): by
  // the suite's second half one held 400-700 MB, and the per-route files run there took two to three times
  // as long as in fresh workers. Jest starts a new worker after a file that leaves it over this much
  // (docs/performance.md, "Workers recycled").
  workerIdleMemoryLimit: '300MB',
  // Which files start first when jest has no timings of them yet, as in a clean clone (test/sequencer.js).
  testSequencer: '<rootDir>/test/sequencer.js',
  projects: [
    { ...base, ...timeout(30_000), displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...base,
      ...timeout(60_000),
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
      setupFiles: ['<rootDir>/test/integration/env.ts'],
    },
    { ...base, ...timeout(120_000), displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    {
      ...base,
      ...timeout(120_000),
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
      setupFiles: ['<rootDir>/test/integration/env.ts'],
    },
  ],
};
