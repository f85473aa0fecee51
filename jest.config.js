/** Jest projects per test tier; `npm test` runs them all. */
const esmPackages = ['@middy', 'jose', 'zod', 'oauth2-mock-server', 'is-plain-obj'].join('|');

const base = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.m?[tj]s$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', esModuleInterop: true, isolatedModules: true } },
    ],
  },
  transformIgnorePatterns: [`node_modules/(?!(${esmPackages})/)`],
  moduleNameMapper: {
    '^@contract/(.*)$': '<rootDir>/contract/$1',
    '^@lib/(.*)$': '<rootDir>/lib/$1',
    '^@lambdas/(.*)$': '<rootDir>/lambdas/$1',
    '^@test/(.*)$': '<rootDir>/test/$1',
  },
};

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...base,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
      setupFiles: ['<rootDir>/test/integration/env.ts'],
    },
    { ...base, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
  ],
};
