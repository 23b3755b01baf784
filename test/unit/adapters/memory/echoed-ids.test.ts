import { MemoryService } from '../../../../src/adapters/memory';

/** Error messages quote at most 100 characters of a client's id or field (issue 25, finding 14). */
describe('MemoryService errors cut long ids and fields short', () => {
  const longId = 'i'.repeat(100_000);

  it('a 100 KB id gives a short NotFound on get, patch, update and remove', async () => {
    const service = new MemoryService({ id: '_id' });
    for (const call of [
      () => service.get(longId),
      () => service.patch(longId, { a: 1 }),
      () => service.update(longId, { a: 1 }),
      () => service.remove(longId),
    ]) {
      const error = await call().then(
        () => undefined,
        (caught: Error) => caught,
      );
      expect(error).toMatchObject({ name: 'NotFound' });
      expect(error!.message.length).toBeLessThan(200);
      expect(error!.message).toContain('(100000 characters)');
    }
  });

  it('a duplicate 100 KB id gives a short Conflict', async () => {
    const service = new MemoryService({ id: '_id' });
    await service.create({ _id: longId });
    const error = await service.create({ _id: longId }).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error).toMatchObject({ name: 'Conflict' });
    expect(JSON.stringify(error).length).toBeLessThan(300);
  });

  it('a 100 KB field name in an update operator gives a short BadRequest', async () => {
    const service = new MemoryService({ id: '_id', updateOperators: ['$inc'] });
    const created = (await service.create({ text: 'x' })) as { _id: string };
    const error = await service.patch(created._id, { $inc: { ['f'.repeat(100_000)]: 'not a number' } }).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error).toMatchObject({ name: 'BadRequest' });
    expect(error!.message).toMatch(/^\$inc needs a number for 'f{100}\.\.\. \(100000 characters\)'$/);
  });
});
