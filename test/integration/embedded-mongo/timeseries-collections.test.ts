import { startFixture, stopFixture, type Fixture } from './embedded-mongo-fixture';

describe('embedded mongo: timeseries collections (observable behaviour)', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await startFixture();
  });
  afterAll(() => stopFixture(fixture));

  test(
    'mongod lists a timeseries collection with type "timeseries" and its options ' +
      '(granularity, bucketMaxSpanSeconds, expireAfterSeconds)',
    async () => {
      await fixture.db.createCollection('weather', {
        timeseries: { timeField: 'at', metaField: 'sensor' },
        expireAfterSeconds: 86400,
      });
      const [info] = await fixture.db.listCollections({ name: 'weather' }, { nameOnly: false }).toArray();
      expect(info).toMatchObject({
        name: 'weather',
        type: 'timeseries',
        options: {
          timeseries: { timeField: 'at', metaField: 'sensor', granularity: 'seconds', bucketMaxSpanSeconds: 3600 },
          expireAfterSeconds: 86400,
        },
      });
    },
  );

  test('mongod requires the timeField to be a Date on insert (code 2) and stores measurements otherwise', async () => {
    const weather = fixture.db.collection('weather');
    await weather.insertOne({ at: new Date('2026-01-01T00:00:00Z'), sensor: 'a', temp: 12 });
    await expect(weather.insertOne({ sensor: 'a', temp: 13 })).rejects.toMatchObject({
      code: 2,
      message: "'at' must be present and contain a valid BSON UTC datetime value",
    });
    await expect(weather.insertOne({ at: '2026-01-01', temp: 13 })).rejects.toMatchObject({ code: 2 });
    expect(await weather.find({ sensor: 'a' }, { projection: { _id: 0 } }).toArray()).toEqual([
      { at: new Date('2026-01-01T00:00:00Z'), sensor: 'a', temp: 12 },
    ]);
  });

  test(
    'mongod refuses a timeseries spec without timeField (40414) and ' + 'expireAfterSeconds on a plain collection (72)',
    async () => {
      await expect(
        fixture.db.createCollection('broken', { timeseries: { metaField: 'm' } as never }),
      ).rejects.toMatchObject({ code: 40414 });
      await expect(fixture.db.createCollection('plainTtl', { expireAfterSeconds: 10 })).rejects.toMatchObject({
        code: 72,
      });
    },
  );

  test('collMod changes a timeseries collection expireAfterSeconds', async () => {
    await fixture.db.command({ collMod: 'weather', expireAfterSeconds: 60 });
    const [info] = await fixture.db.listCollections({ name: 'weather' }, { nameOnly: false }).toArray();
    expect(info.options?.expireAfterSeconds).toBe(60);
  });
});
