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
    '<rootDir>/test/unit/domain/ip.test.ts',
    '<rootDir>/test/unit/domain/rules.test.ts',
    '<rootDir>/test/unit/domain/token-format.test.ts',
    '<rootDir>/test/unit/use-cases/admit-session.test.ts',
  ],
};
