import type { Config } from 'jest';

// swc transpiles only; `npm run typecheck` type-checks the whole tree once.
// Inversify 8 ships ESM only: Node >= 20.19 can require() it, Jest's module loader cannot, so swc
// turns those packages into CommonJS for the tests. The OTLP exporters load node:http with a
// dynamic import(), which Jest's module loader cannot run either: swc turns it into a require().
const transform: Config['transform'] = { '^.+\\.(t|j)s$': ['@swc/jest', {}] };
const transformIgnorePatterns = ['/node_modules/(?!(inversify|@inversifyjs|@opentelemetry/otlp-exporter-base)/)'];

const config: Config = {
  projects: [
    {
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      transform,
      transformIgnorePatterns,
      testEnvironment: 'node',
    },
    {
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      transform,
      transformIgnorePatterns,
      testEnvironment: 'node',
      slowTestThreshold: 30,
    },
  ],
  testTimeout: 30_000,
  // The second reporter lists skipped tests with their reasons (see test/helpers/skip-with-reason.ts).
  reporters: ['default', '<rootDir>/test/reporters/skip-reasons.reporter.cjs'],
};

export default config;
