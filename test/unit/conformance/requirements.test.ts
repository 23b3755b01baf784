import { compareVersions, requirementsUnmet, type ServerInfo } from '../../integration/conformance/requirements';

const standalone7: ServerInfo = { version: '7.0.12', topology: 'single' };

describe('runOnRequirements', () => {
  test('versions compare numerically with missing parts as zero', () => {
    expect(compareVersions('7.0.12', '7.0')).toBeGreaterThan(0);
    expect(compareVersions('4.4', '4.4.0')).toBe(0);
    expect(compareVersions('7.0.0', '7.99')).toBeLessThan(0);
    expect(compareVersions('10.0', '9.9')).toBeGreaterThan(0);
  });

  test('no requirements always hold', () => {
    expect(requirementsUnmet(undefined, standalone7)).toBeUndefined();
    expect(requirementsUnmet([], standalone7)).toBeUndefined();
  });

  test('version bounds are inclusive', () => {
    expect(requirementsUnmet([{ minServerVersion: '7.0.12' }], standalone7)).toBeUndefined();
    expect(requirementsUnmet([{ maxServerVersion: '7.99' }], standalone7)).toBeUndefined();
    expect(requirementsUnmet([{ minServerVersion: '8.0' }], standalone7)).toMatch(/needs >= 8.0/);
  });

  test('any one satisfied requirement is enough', () => {
    const reqs = [{ minServerVersion: '8.0' }, { minServerVersion: '4.2', topologies: ['single', 'replicaset'] }];
    expect(requirementsUnmet(reqs, standalone7)).toBeUndefined();
  });

  test('topology, serverless and auth are checked', () => {
    expect(requirementsUnmet([{ topologies: ['sharded'] }], standalone7)).toMatch(/topology sharded/);
    expect(requirementsUnmet([{ serverless: 'forbid' }], standalone7)).toBeUndefined();
    expect(requirementsUnmet([{ serverless: 'require' }], standalone7)).toMatch(/serverless/);
    expect(requirementsUnmet([{ auth: true }], standalone7)).toMatch(/auth/);
  });
});
