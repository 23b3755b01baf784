import jwt from 'jsonwebtoken';
import { createJwtSettings, signServiceCredential, UnscopedServiceCredential } from '../../../../src/adapters/passport';
import { verifyServiceCredential } from '../../../../src/adapters/passport/service-credential';

const settings = createJwtSettings({ secret: 'service-credential-unit-secret-0000000000' });
const nothingRevoked = () => false;

describe('service credentials', () => {
  it('carry their scopes, read back as a null-prototype object', () => {
    const { credential, credentialId } = signServiceCredential(settings, 'server-b', {
      messages: ['find', 'create', 'find'],
    });
    const caller = verifyServiceCredential(credential, settings, nothingRevoked);
    expect(caller).toMatchObject({ name: 'server-b', credentialId });
    expect({ ...caller.scopes }).toEqual({ messages: ['find', 'create'] });
    expect(Object.getPrototypeOf(caller.scopes)).toBeNull();
  });

  it('cannot be issued without a service and a method', () => {
    expect(() => signServiceCredential(settings, 'server-b', {})).toThrow('at least one service');
    expect(() => signServiceCredential(settings, 'server-b', { messages: [] })).toThrow('at least one service');
  });

  it('without scopes (or with malformed ones) are refused as UnscopedServiceCredential, naming the caller', () => {
    for (const claims of [
      {},
      { services: ['messages'] },
      { services: { messages: 'find' } },
      { services: { messages: [1] } },
    ]) {
      const token = jwt.sign(claims, settings.signingKey, {
        algorithm: 'HS256',
        audience: 'hexa-services',
        issuer: 'hexa-services',
        subject: 'old',
        jwtid: 'abc',
        header: { alg: 'HS256', typ: 'service' },
      });
      expect(() => verifyServiceCredential(token, settings, nothingRevoked)).toThrow(UnscopedServiceCredential);
    }
  });

  it('are refused when revoked, before their scopes are read', () => {
    const { credential, credentialId } = signServiceCredential(settings, 'server-b', { messages: ['find'] });
    expect(() => verifyServiceCredential(credential, settings, (id) => id === credentialId)).toThrow(
      'The service credential has been revoked',
    );
  });
});
