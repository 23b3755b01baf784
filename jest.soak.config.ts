import type { Config } from 'jest';

// Long reliability runs (load, memory, long fuzzing), kept out of `npm test`; `npm run test:soak`
// runs them one file at a time so they do not compete for the CPU, each bounded in time.
const config: Config = {
  displayName: 'soak',
  testMatch: ['<rootDir>/test/soak/**/*.test.ts'],
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', {}] },
  transformIgnorePatterns: ['/node_modules/(?!(inversify|@inversifyjs)/)'],
  testEnvironment: 'node',
  maxWorkers: 1,
  testTimeout: 120_000,
  slowTestThreshold: 120,
  reporters: ['default', '<rootDir>/test/reporters/skip-reasons.reporter.cjs'],
};

export default config;
