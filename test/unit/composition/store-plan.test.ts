import type { ServiceDefinition } from '../../../src/application/services/service-definition';
import { ConfigError, loadConfig } from '../../../src/composition/load-config';
import { planStores, remoteNameOf } from '../../../src/composition/store-plan';

const SERVICES = [{ path: 'users' }, { path: 'messages' }, { path: 'api/notes' }] as ServiceDefinition[];

describe('planStores', () => {
  it('stores every service in STORE unless its <NAME>_REMOTE_URL binds it to another server', () => {
    const plans = planStores(
      loadConfig({ STORE: 'memory', API_NOTES_REMOTE_URL: 'http://127.0.0.1:4000', API_NOTES_REMOTE_TOKEN: 't' }),
      SERVICES,
    );
    expect(plans.of('users')).toEqual({ store: 'memory' });
    expect(plans.of('messages')).toEqual({ store: 'memory' });
    expect(plans.of('api/notes')).toEqual({
      store: 'remote',
      remote: { url: 'http://127.0.0.1:4000', token: 't', readiness: true },
    });
    expect(plans.usesDatabase).toBe(false);
  });

  it('uses the database when, and only when, some service is stored locally in MongoDB', () => {
    const remote = (name: string) => ({ [`${name}_REMOTE_URL`]: 'http://127.0.0.1:4000' });
    expect(planStores(loadConfig({ STORE: 'mongo' }), SERVICES).usesDatabase).toBe(true);
    expect(
      planStores(loadConfig({ STORE: 'mongo', ...remote('USERS'), ...remote('MESSAGES') }), SERVICES).usesDatabase,
    ).toBe(true);
    expect(
      planStores(
        loadConfig({ STORE: 'mongo', ...remote('USERS'), ...remote('MESSAGES'), ...remote('API_NOTES') }),
        SERVICES,
      ).usesDatabase,
    ).toBe(false);
  });

  it('refuses a <NAME>_REMOTE_URL that names no service, with one line naming the variable', () => {
    expect(() => planStores(loadConfig({ MESAGES_REMOTE_URL: 'http://127.0.0.1:4000' }), SERVICES)).toThrow(
      ConfigError,
    );
    expect(() => planStores(loadConfig({ MESAGES_REMOTE_URL: 'http://127.0.0.1:4000' }), SERVICES)).toThrow(
      'MESAGES_REMOTE_URL names no service (known: users, messages, api_notes)',
    );
  });

  it('has no plan for a path that is not composed', () => {
    expect(() => planStores(loadConfig({}), SERVICES).of('payments')).toThrow(/'payments'/);
  });

  it('names a service in its variable by its path, lower-cased, other characters as underscores', () => {
    expect(remoteNameOf('api/notes')).toBe('api_notes');
    expect(remoteNameOf('Line-Items')).toBe('line_items');
  });
});
