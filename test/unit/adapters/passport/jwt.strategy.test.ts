import { MemoryService } from '../../../../src/adapters/memory';
import { JsonWebTokenIssuer } from '../../../../src/adapters/passport/jsonwebtoken-issuer';
import { createJwtSettings } from '../../../../src/adapters/passport/jwt-settings';
import { JwtAuthenticationStrategy } from '../../../../src/adapters/passport/jwt.strategy';
import jsonwebtoken from 'jsonwebtoken';
import { Unavailable } from '../../../../src/domain/errors';

const settings = createJwtSettings({ secret: 's'.repeat(32) }, { audience: 'test-aud', issuer: 'test-iss' });
const issuer = new JsonWebTokenIssuer(settings);

async function givenStrategy() {
  const users = new MemoryService();
  await users.create({ email: 'ann@example.com', password: 'hash' });
  return { strategy: new JwtAuthenticationStrategy({ settings, users: () => users }), users };
}

describe('JwtAuthenticationStrategy', () => {
  it('verifies a token and loads its user by sub', async () => {
    const { strategy } = await givenStrategy();
    const token = await issuer.sign('0');
    const result = await strategy.authenticate({ strategy: 'jwt', accessToken: token });
    expect(result).toEqual({
      accessToken: token,
      authentication: { strategy: 'jwt', accessToken: token, payload: await issuer.verify(token) },
      user: { id: 0, email: 'ann@example.com', password: 'hash' },
    });
    expect(result.authentication.payload).toMatchObject({ aud: 'test-aud', iss: 'test-iss' });
  });

  it('refuses a missing token, and a token of another audience (settings shared with the issuer)', async () => {
    const { strategy } = await givenStrategy();
    await expect(strategy.authenticate({ strategy: 'jwt' })).rejects.toMatchObject({ message: 'No access token' });
    await expect(strategy.authenticate({ strategy: 'jwt', accessToken: '' })).rejects.toMatchObject({
      message: 'No access token',
    });
    const foreign = await new JsonWebTokenIssuer(createJwtSettings({ secret: 's'.repeat(32) })).sign('0');
    await expect(strategy.authenticate({ strategy: 'jwt', accessToken: foreign })).rejects.toMatchObject({
      code: 401,
      message: 'jwt audience invalid. expected: test-aud',
      data: { name: 'JsonWebTokenError' },
    });
  });

  it('answers 401 (not 404) for the token of a removed user', async () => {
    const { strategy, users } = await givenStrategy();
    const token = await issuer.sign('0');
    await users.remove(0);
    await expect(strategy.authenticate({ strategy: 'jwt', accessToken: token })).rejects.toMatchObject({
      name: 'NotAuthenticated',
      message: 'Invalid access token',
    });
  });

  it('passes other users service failures on', async () => {
    const strategy = new JwtAuthenticationStrategy({
      settings,
      users: () => ({
        get: async () => {
          throw new Unavailable('down');
        },
      }),
    });
    await expect(strategy.authenticate({ strategy: 'jwt', accessToken: await issuer.sign('0') })).rejects.toMatchObject(
      { name: 'Unavailable' },
    );
  });

  describe('a token seen before', () => {
    afterEach(() => jest.restoreAllMocks());

    it('is not verified again, while its user is still loaded on every call', async () => {
      const { strategy, users } = await givenStrategy();
      const token = await issuer.sign('0');
      const verify = jest.spyOn(jsonwebtoken, 'verify');
      const first = await strategy.authenticate({ strategy: 'jwt', accessToken: token });
      const get = jest.spyOn(users, 'get');
      const second = await strategy.authenticate({ strategy: 'jwt', accessToken: token });
      expect(second).toEqual(first);
      expect(verify).toHaveBeenCalledTimes(1);
      expect(get).toHaveBeenCalledTimes(1);
      await users.remove(0);
      await expect(strategy.authenticate({ strategy: 'jwt', accessToken: token })).rejects.toMatchObject({
        name: 'NotAuthenticated',
        message: 'Invalid access token',
      });
    });

    it("is refused once it expires, with the verifier's own answer", async () => {
      const shortLived = createJwtSettings(
        { secret: 's'.repeat(32) },
        { audience: 'test-aud', issuer: 'test-iss', expiresIn: 60 },
      );
      const users = new MemoryService();
      await users.create({ email: 'ann@example.com' });
      const strategy = new JwtAuthenticationStrategy({ settings: shortLived, users: () => users });
      const token = await new JsonWebTokenIssuer(shortLived).sign('0');
      await strategy.authenticate({ strategy: 'jwt', accessToken: token });
      const now = Date.now();
      jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
      await expect(strategy.authenticate({ strategy: 'jwt', accessToken: token })).rejects.toMatchObject({
        code: 401,
        message: 'jwt expired',
        data: { name: 'TokenExpiredError' },
      });
    });

    it('never stands in for a token that failed verification', async () => {
      const { strategy } = await givenStrategy();
      const token = await issuer.sign('0');
      const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      await strategy.authenticate({ strategy: 'jwt', accessToken: token });
      await expect(strategy.authenticate({ strategy: 'jwt', accessToken: tampered })).rejects.toMatchObject({
        code: 401,
        message: 'invalid signature',
      });
      await expect(strategy.authenticate({ strategy: 'jwt', accessToken: tampered })).rejects.toMatchObject({
        code: 401,
        message: 'invalid signature',
      });
    });
  });
});
