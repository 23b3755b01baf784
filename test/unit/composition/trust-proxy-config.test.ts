import { ConfigError, loadConfig } from '../../../src/composition/load-config';

const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

describe('TRUST_PROXY and the sign-up limit in the configuration', () => {
  it('reads TRUST_PROXY as off, a hop count, or addresses, subnets and presets', () => {
    expect(load({}).trustProxy).toBeUndefined();
    expect(load({ TRUST_PROXY: '' }).trustProxy).toBeUndefined();
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10,loopback, fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      'loopback',
      'fd00::/8',
    ]);
  });

  it('refuses anything else with a one-line message naming the variable', () => {
    for (const value of [
      'true',
      'yes',
      '10.0.0.0/33',
      '10.0.0/8',
      'fd00::/129',
      'proxy.example.com',
      '1,',
      '101',
      '-1',
      '10.0.0.1/8/9',
    ]) {
      expect(() => load({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => load({ TRUST_PROXY: value })).toThrow(/^TRUST_PROXY must be/);
    }
  });

  it('reads the sign-up limit per address, 10 per 15 minutes by default', () => {
    expect(load({}).auth).toMatchObject({ maxSignUpsPerClient: 10, signUpWindowMs: 900_000 });
    expect(load({ SIGNUP_MAX_PER_CLIENT: '3', SIGNUP_WINDOW_MS: '60000' }).auth).toMatchObject({
      maxSignUpsPerClient: 3,
      signUpWindowMs: 60_000,
    });
    expect(() => load({ SIGNUP_MAX_PER_CLIENT: '0' })).toThrow(/^SIGNUP_MAX_PER_CLIENT must be an integer from 1/);
    expect(() => load({ SIGNUP_WINDOW_MS: '10' })).toThrow(/^SIGNUP_WINDOW_MS must be an integer from 1000/);
  });
});
