import type { Config } from 'jest';

// swc transpiles only; `npm run typecheck` does the type checking once for the whole tree.
const transform: Config['transform'] = { '^.+\\.ts$': ['@swc/jest', {}] };

const config: Config = {
  projects: [
    { displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], transform, testEnvironment: 'node' },
    {
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      transform,
      testEnvironment: 'node',
      slowTestThreshold: 30,
    },
  ],
  testTimeout: 30_000,
};

export default config;
