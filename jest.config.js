/** Tests run against the real PostgreSQL (TEST_DATABASE_URL, default the local server); each file gets a fresh database. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  setupFiles: ['reflect-metadata'],
  // TEST_OPEN_HANDLES=<file>: which test file leaves a handle that keeps its worker alive (test/helpers/open-handles.ts).
  ...(process.env.TEST_OPEN_HANDLES ? { setupFilesAfterEnv: ['<rootDir>/test/helpers/open-handles.ts'] } : {}),
  testTimeout: 60000,
  maxWorkers: 2,
  // The default output, then the wall time and the slowest files.
  reporters: ['default', '<rootDir>/scripts/jest-slowest-reporter.js'],
};
