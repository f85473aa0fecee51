/**
 * The unit tests that judge the security core, as Stryker's jest runner runs them
 * (stryker.config.json, `npm run test:mutation`): the unit project of jest.config.js, limited to
 * the files that exercise the mutated modules, so that each mutant costs seconds, not a full run.
 */
const { projects } = require('./jest.config.js');

const unit = projects.find((project) => project.displayName === 'unit');

module.exports = {
  ...unit,
  rootDir: __dirname,
  testMatch: [
    '<rootDir>/test/unit/authorizer/*.test.ts',
    '<rootDir>/test/unit/crypto/*.test.ts',
    '<rootDir>/test/unit/domain/*.test.ts',
    '<rootDir>/test/unit/http/errors.test.ts',
    '<rootDir>/test/unit/outbound/*.test.ts',
    '<rootDir>/test/unit/use-cases/*.test.ts',
  ],
};
