import { randomBytes, scryptSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import { ScryptPasswordHasher } from '../../../../src/adapters/passport/scrypt-password-hasher';

const PASSWORD = 'correct horse battery';
const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/**
 * How busy the event loop was while `work` ran (0: idle, 1: always running JavaScript). Unlike
 * timer gaps, this does not grow when other processes load the machine: waiting in the poll
 * phase counts as idle however long the thread is descheduled.
 */
async function loopUtilization<T>(work: () => Promise<T>): Promise<{ result: T; utilization: number; ms: number }> {
  const before = performance.eventLoopUtilization();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  return { result, utilization: performance.eventLoopUtilization(before).utilization, ms };
}

describe('ScryptPasswordHasher', () => {
  const hasher = new ScryptPasswordHasher({ cost: 10 });
  afterAll(() => hasher.close());

  it('stores a self-describing scrypt hash with a fresh salt, and compares', async () => {
    const hash = await hasher.hash(PASSWORD);
    expect(hash).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hasher.hash(PASSWORD)).not.toBe(hash);
    await expect(hasher.compare(PASSWORD, hash)).resolves.toBe(true);
    await expect(hasher.compare(`${PASSWORD} `, hash)).resolves.toBe(false);
    await expect(hasher.compare('', hash)).resolves.toBe(false);
    expect(hasher.needsRehash(hash)).toBe(false);
  });

  it('verifies a hash made by plain scrypt with other settings, and wants it replaced', async () => {
    const salt = randomBytes(24);
    const key = scryptSync(PASSWORD, salt, 64, { N: 2 ** 11, r: 4, p: 2 });
    const stored = `$scrypt$ln=11,r=4,p=2$${b64(salt)}$${b64(key)}`;
    await expect(hasher.compare(PASSWORD, stored)).resolves.toBe(true);
    await expect(hasher.compare('wrong', stored)).resolves.toBe(false);
    expect(hasher.needsRehash(stored)).toBe(true);
    // The same settings with another cost are not current either.
    expect(new ScryptPasswordHasher({ cost: 12 }).needsRehash(await hasher.hash(PASSWORD))).toBe(true);
  });

  it.each(['2a', '2b', '2y'])('verifies a legacy $%s$ bcrypt hash and wants it replaced', async (version) => {
    const stored = bcrypt.hashSync(PASSWORD, 4).replace(/^\$2b\$/, `$${version}$`);
    await expect(hasher.compare(PASSWORD, stored)).resolves.toBe(true);
    await expect(hasher.compare('wrong', stored)).resolves.toBe(false);
    expect(hasher.needsRehash(stored)).toBe(true);
  });

  it('verifies bcrypt in a worker thread: the event loop stays idle meanwhile', async () => {
    // bcryptjs on the main thread keeps the loop busy for the whole compare (utilization near 1).
    const stored = bcrypt.hashSync(PASSWORD, 11);
    await hasher.compare(PASSWORD, stored); // the worker started
    const { result, utilization, ms } = await loopUtilization(() => hasher.compare(PASSWORD, stored));
    expect(result).toBe(true);
    console.log(`bcrypt cost 11 in a worker: ${ms.toFixed(0)} ms, event loop utilization ${utilization.toFixed(2)}`);
    expect(utilization).toBeLessThan(0.3);
  });

  it('hashes off the event loop at the default cost', async () => {
    const production = new ScryptPasswordHasher();
    const { result, utilization, ms } = await loopUtilization(() => production.hash(PASSWORD));
    expect(result).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    console.log(
      `scrypt N=2^17 r=8 p=1 (128 MiB): one hash ${ms.toFixed(0)} ms, event loop utilization ${utilization.toFixed(2)}`,
    );
    expect(utilization).toBeLessThan(0.3);
    await production.close();
  });

  it('never matches something that is not a well-formed hash within bounds', async () => {
    const good = await hasher.hash(PASSWORD);
    const [, , , salt, key] = good.split('$');
    const malformed: unknown[] = [
      undefined,
      null,
      42,
      {},
      '',
      PASSWORD,
      '$scrypt$',
      good.slice(0, -1),
      `${good}=`,
      `${good}x`,
      good.toUpperCase(),
      `$scrypt$ln=10,r=8,p=1$${salt}$`,
      `$scrypt$ln=10,r=8,p=1$$${key}`,
      `$scrypt$ln=10,r=8$${salt}$${key}`,
      `$scrypt$ln=9,r=8,p=1$${salt}$${key}`,
      `$scrypt$ln=21,r=8,p=1$${salt}$${key}`,
      `$scrypt$ln=10,r=0,p=1$${salt}$${key}`,
      `$scrypt$ln=10,r=8,p=0$${salt}$${key}`,
      `$scrypt$ln=10,r=8,p=99$${salt}$${key}`,
      `$scrypt$ln=20,r=32,p=1$${salt}$${key}`,
      `$scrypt$ln=10,r=8,p=1$${salt.slice(0, 10)}$${key}`,
      `$scrypt$ln=10,r=8,p=1$${salt}$${key.slice(0, 40)}`,
      `$scrypt$ln=10,r=8,p=1$${salt}==$${key}`,
      ` ${good}`,
      `${good}\n`,
      '$2b$04$short',
      `$2x$04$${'a'.repeat(53)}`,
      `$2b$04$${'a'.repeat(52)}`,
      `$argon2id$v=19$m=19456,t=2,p=1$${salt}$${key}`,
    ];
    for (const stored of malformed) {
      await expect(hasher.compare(PASSWORD, stored as string)).resolves.toBe(false);
      if (typeof stored === 'string') expect(hasher.needsRehash(stored)).toBe(true);
    }
    await expect(hasher.compare(undefined as never, good)).resolves.toBe(false);
  });

  it('runs at most `concurrency` hashes and compares at once, and refuses past the queue with 503', async () => {
    const capped = new ScryptPasswordHasher({ cost: 14, concurrency: 2, queueLimit: 3 });
    const stored = await capped.hash(PASSWORD);
    const legacy = bcrypt.hashSync(PASSWORD, 6);
    const work = [
      capped.hash(PASSWORD),
      capped.compare(PASSWORD, stored),
      capped.compare(PASSWORD, legacy),
      capped.hash('x'),
      capped.compare('x', stored),
    ];
    expect(capped.load).toEqual({ running: 2, waiting: 3 });
    await expect(capped.hash('one too many')).rejects.toMatchObject({ name: 'Unavailable', code: 503 });
    let highest = 0;
    const sampler = setInterval(() => (highest = Math.max(highest, capped.load.running)), 1);
    const results = await Promise.all(work);
    clearInterval(sampler);
    expect(results.slice(1, 3)).toEqual([true, true]);
    expect(results[4]).toBe(false);
    expect(highest).toBeLessThanOrEqual(2);
    expect(capped.load).toEqual({ running: 0, waiting: 0 });
    await capped.close();
  });

  it('refuses costs outside 10 to 20', () => {
    expect(new ScryptPasswordHasher().parameters).toEqual({ ln: 17, r: 8, p: 1 });
    expect(() => new ScryptPasswordHasher({ cost: 9 })).toThrow('cost');
    expect(() => new ScryptPasswordHasher({ cost: 21 })).toThrow('cost');
    expect(() => new ScryptPasswordHasher({ cost: 12.5 })).toThrow('cost');
  });
});
