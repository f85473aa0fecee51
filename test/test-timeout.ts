// Sets the time limit of the test file's tier, named by its jest project (jest.config.js).
const ms = (globalThis as { TEST_TIMEOUT_MS?: unknown }).TEST_TIMEOUT_MS;
if (typeof ms !== 'number') throw new Error('jest.config.js gives every project a TEST_TIMEOUT_MS');
jest.setTimeout(ms);
