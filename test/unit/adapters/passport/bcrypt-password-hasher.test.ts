import { BcryptPasswordHasher } from '../../../../src/adapters/passport/bcrypt-password-hasher';

describe('BcryptPasswordHasher', () => {
  const hasher = new BcryptPasswordHasher({ cost: 4 });

  it('hashes with the configured cost and compares', async () => {
    const hash = await hasher.hash('secret password');
    expect(hash).toMatch(/^\$2b\$04\$/);
    await expect(hasher.compare('secret password', hash)).resolves.toBe(true);
    await expect(hasher.compare('other password', hash)).resolves.toBe(false);
    expect(await hasher.hash('secret password')).not.toBe(hash);
  });

  it('defaults to cost 10 and refuses silly costs', () => {
    expect(new BcryptPasswordHasher().cost).toBe(10);
    expect(() => new BcryptPasswordHasher({ cost: 3 })).toThrow('cost');
    expect(() => new BcryptPasswordHasher({ cost: 10.5 })).toThrow('cost');
  });

  it('never matches something that is not a bcrypt hash', async () => {
    for (const stored of ['secret password', '', '$2b$04$short', undefined, 42]) {
      await expect(hasher.compare('secret password', stored as never)).resolves.toBe(false);
    }
  });
});
