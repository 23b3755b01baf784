import 'reflect-metadata';
import { SERVICES } from '../../../src/application/services/service-list';
import { credentialScopes } from '../../../src/composition/credential-scopes';

describe('credentialScopes (npm run service-credential -- <caller> --services ... [--methods ...])', () => {
  it('gives each named service every method it lists, or the named methods', () => {
    expect({ ...credentialScopes(SERVICES, 'messages') }).toEqual({
      messages: ['find', 'get', 'create', 'update', 'patch', 'remove', 'markRead'],
    });
    expect({ ...credentialScopes(SERVICES, ' messages , users ', 'find,get') }).toEqual({
      messages: ['find', 'get'],
      users: ['find', 'get'],
    });
  });

  it('refuses unknown services and methods, inherited names included, with what exists', () => {
    expect(() => credentialScopes(SERVICES, 'mesages')).toThrow(
      `this server has no service "mesages" (it has: ${SERVICES.map((definition) => definition.path).join(', ')})`,
    );
    expect(() => credentialScopes(SERVICES, 'constructor')).toThrow('no service "constructor"');
    expect(() => credentialScopes(SERVICES, 'users', 'markRead')).toThrow(
      'the service "users" has no method "markRead"',
    );
    expect(() => credentialScopes(SERVICES, ',')).toThrow('--services must name at least one service');
    expect(() => credentialScopes(SERVICES, 'users', '')).toThrow('--methods must name at least one method');
  });

  it('is a null-prototype object, so a lookup of an inherited name finds nothing', () => {
    const scopes = credentialScopes(SERVICES, 'messages');
    expect(Object.getPrototypeOf(scopes)).toBeNull();
    expect((scopes as Record<string, unknown>).constructor).toBeUndefined();
  });
});
