import { type Db } from 'mongodb';
import { recordingLogger, startFixture, stopFixture, type Fixture, serverError } from './embedded-mongo-fixture';

const contactsSchema = {
  $jsonSchema: {
    bsonType: 'object',
    title: 'contact',
    required: ['name', 'phone'],
    properties: {
      name: { bsonType: 'string', description: 'must be a string', minLength: 2, maxLength: 20 },
      phone: { bsonType: ['string', 'null'], pattern: '^[0-9-]+$' },
      age: { bsonType: ['int', 'long'], minimum: 0, maximum: 150, exclusiveMaximum: true },
      tags: { bsonType: 'array', items: { bsonType: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
      status: { enum: ['active', 'inactive'] },
    },
  },
};

describe('embedded mongo: collection validators', () => {
  let fixture: Fixture;
  let logger: ReturnType<typeof recordingLogger>;
  let db: Db;
  beforeAll(async () => {
    logger = recordingLogger();
    fixture = await startFixture({ logger });
    db = fixture.db;
  });
  afterAll(() => stopFixture(fixture));

  test(
    'mongod refuses an insert that fails $jsonSchema with code 121 and errInfo { ' +
      'failingDocumentId, details.schemaRulesNotSatisfied }',
    async () => {
      const contacts = await db.createCollection('contacts', { validator: contactsSchema });
      await contacts.insertOne({ name: 'Ann', phone: '555-1234', age: 30, tags: ['a'], status: 'active' });
      const error = await serverError(contacts.insertOne({ _id: 7 as never, name: 5, age: 200 }));
      expect(error.code).toBe(121);
      expect(error.message).toBe('Document failed validation');
      const errInfo = error.errInfo as {
        failingDocumentId: unknown;
        details: { operatorName: string; title: string; schemaRulesNotSatisfied: Array<Record<string, unknown>> };
      };
      expect(errInfo.failingDocumentId).toBe(7);
      expect(errInfo.details.operatorName).toBe('$jsonSchema');
      expect(errInfo.details.title).toBe('contact');
      expect(errInfo.details.schemaRulesNotSatisfied).toEqual(
        expect.arrayContaining([
          { operatorName: 'required', specifiedAs: { required: ['name', 'phone'] }, missingProperties: ['phone'] },
          {
            operatorName: 'properties',
            propertiesNotSatisfied: [
              {
                propertyName: 'name',
                description: 'must be a string',
                details: [
                  {
                    operatorName: 'bsonType',
                    specifiedAs: { bsonType: 'string' },
                    reason: 'type did not match',
                    consideredValue: 5,
                    consideredType: 'int',
                  },
                ],
              },
              {
                propertyName: 'age',
                details: [
                  {
                    operatorName: 'maximum',
                    specifiedAs: { maximum: 150, exclusiveMaximum: true },
                    reason: 'comparison failed',
                    consideredValue: 200,
                  },
                ],
              },
            ],
          },
        ]),
      );
      expect(await contacts.countDocuments()).toBe(1);
    },
  );

  test.each([
    ['minLength', { name: 'A', phone: '1' }, 'minLength'],
    ['pattern', { name: 'Ann', phone: 'abc' }, 'pattern'],
    ['items', { name: 'Ann', phone: '1', tags: [1] }, 'items'],
    ['minItems', { name: 'Ann', phone: '1', tags: [] }, 'minItems'],
    ['maxItems', { name: 'Ann', phone: '1', tags: ['a', 'b', 'c', 'd'] }, 'maxItems'],
    ['uniqueItems', { name: 'Ann', phone: '1', tags: ['a', 'a'] }, 'uniqueItems'],
    ['enum', { name: 'Ann', phone: '1', status: 'gone' }, 'enum'],
    ['bsonType array (long or int only)', { name: 'Ann', phone: '1', age: 1.5 }, 'bsonType'],
  ])('mongod reports the failed %s keyword under properties', async (_label, doc, operatorName) => {
    const error = await serverError(db.collection('contacts').insertOne(doc));
    expect(error.code).toBe(121);
    const details = (
      error.errInfo as {
        details: {
          schemaRulesNotSatisfied: Array<{
            propertiesNotSatisfied: Array<{ details: Array<{ operatorName: string }> }>;
          }>;
        };
      }
    ).details;
    const reported = details.schemaRulesNotSatisfied
      .flatMap((rule) => rule.propertiesNotSatisfied ?? [])
      .flatMap((property) => property.details.map((detail) => detail.operatorName));
    expect(reported).toContain(operatorName);
  });

  test(
    'mongod accepts values a restriction keyword does not apply to (minimum ' +
      'on a string) and keys not listed in properties',
    async () => {
      const loose = await db.createCollection('loose', {
        validator: { $jsonSchema: { properties: { n: { minimum: 5 } } } },
      });
      await expect(loose.insertOne({ n: 'text', other: true })).resolves.toBeDefined();
    },
  );

  test(
    'mongod applies anyOf / allOf / oneOf / not, ' + 'additionalProperties, patternProperties and dependencies',
    async () => {
      const shapes = await db.createCollection('shapes', {
        validator: {
          $jsonSchema: {
            bsonType: 'object',
            additionalProperties: false,
            properties: { _id: {}, kind: { enum: ['circle', 'square'] }, r: {}, side: {}, color: {} },
            patternProperties: { '^x_': { bsonType: 'int' } },
            anyOf: [{ required: ['r'] }, { required: ['side'] }],
            oneOf: [{ properties: { kind: { enum: ['circle'] } } }, { properties: { kind: { enum: ['square'] } } }],
            not: { required: ['color', 'side'] },
            dependencies: { r: ['kind'] },
          },
        },
      });
      await shapes.insertOne({ kind: 'circle', r: 2, x_a: 1 });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ kind: 'circle', r: 2, extra: 1 }, 'additionalProperties'],
        [{ kind: 'circle', r: 2, x_a: 'no' }, 'patternProperties'],
        [{ kind: 'circle' }, 'anyOf'],
        [{ kind: 'square', side: 1, color: 'red' }, 'not'],
        [{ r: 2 }, 'dependencies'],
      ];
      for (const [doc, operatorName] of cases) {
        const error = await serverError(shapes.insertOne(doc));
        const rules = (error.errInfo as { details: { schemaRulesNotSatisfied: Array<{ operatorName: string }> } })
          .details.schemaRulesNotSatisfied;
        expect(rules.map((rule) => rule.operatorName)).toContain(operatorName);
      }
      // oneOf: neither or both branches matching fails; here no kind at all matches both
      // ('properties' of an absent field holds).
      const both = await serverError(shapes.insertOne({ side: 1 }));
      expect(JSON.stringify(both.errInfo)).toContain('more than one subschema matched');
    },
  );

  test(
    'mongod explains a query-operator validator clause by clause ($and of ' +
      'failing clauses, reason and consideredValue)',
    async () => {
      const orders = await db.createCollection('orders', {
        validator: { qty: { $gt: 0 }, status: { $in: ['new', 'paid'] } },
      });
      const error = await serverError(orders.insertOne({ _id: 1 as never, qty: -1, status: 'x' }));
      expect(error.errInfo).toEqual({
        failingDocumentId: 1,
        details: {
          operatorName: '$and',
          clausesNotSatisfied: [
            {
              index: 0,
              details: {
                operatorName: '$gt',
                specifiedAs: { qty: { $gt: 0 } },
                reason: 'comparison failed',
                consideredValue: -1,
              },
            },
            {
              index: 1,
              details: {
                operatorName: '$in',
                specifiedAs: { status: { $in: ['new', 'paid'] } },
                reason: 'no matching value found in array',
                consideredValue: 'x',
              },
            },
          ],
        },
      });
      const missing = await serverError(orders.insertOne({ _id: 2 as never, status: 'new' }));
      // The implicit $and stays the top-level operator when only one of its clauses fails.
      expect(missing.errInfo).toEqual({
        failingDocumentId: 2,
        details: {
          operatorName: '$and',
          clausesNotSatisfied: [
            {
              index: 0,
              details: { operatorName: '$gt', specifiedAs: { qty: { $gt: 0 } }, reason: 'field was missing' },
            },
          ],
        },
      });
    },
  );

  test('mongod validates updates, replacements, findAndModify and upserts, and writes nothing on failure', async () => {
    const items = await db.createCollection('items', {
      validator: { $jsonSchema: { required: ['sku'], properties: { qty: { bsonType: 'int', minimum: 0 } } } },
    });
    await items.insertOne({ _id: 1 as never, sku: 'a', qty: 1 });
    expect((await serverError(items.updateOne({ _id: 1 as never }, { $set: { qty: -5 } }))).code).toBe(121);
    expect((await serverError(items.replaceOne({ _id: 1 as never }, { qty: 2 }))).code).toBe(121);
    expect((await serverError(items.findOneAndUpdate({ _id: 1 as never }, { $unset: { sku: '' } }))).code).toBe(121);
    expect((await serverError(items.updateOne({ _id: 2 as never }, { $set: { qty: 1 } }, { upsert: true }))).code).toBe(
      121,
    );
    expect(
      (await serverError(items.findOneAndUpdate({ _id: 3 as never }, { $set: { qty: 1 } }, { upsert: true }))).code,
    ).toBe(121);
    expect(await items.find().toArray()).toEqual([{ _id: 1, sku: 'a', qty: 1 }]);
    // A bulk write reports the failure as a writeError with errInfo, at the failing index.
    const bulk = await serverError(items.insertMany([{ sku: 'b' }, { qty: 3 }], { ordered: false }));
    expect(bulk.code).toBe(121);
    expect(await items.countDocuments()).toBe(2);
  });

  test('mongod skips validation with bypassDocumentValidation: true', async () => {
    const items = db.collection('items');
    await items.insertOne({ _id: 10 as never, qty: -1 }, { bypassDocumentValidation: true });
    await items.updateOne({ _id: 10 as never }, { $set: { qty: -2 } }, { bypassDocumentValidation: true });
    await items.findOneAndUpdate({ _id: 10 as never }, { $set: { qty: -3 } }, { bypassDocumentValidation: true });
    expect(await items.findOne({ _id: 10 as never })).toEqual({ _id: 10, qty: -3 });
  });

  test(
    'validationLevel moderate: mongod validates inserts and updates of valid ' +
      'documents, not updates of documents that already fail',
    async () => {
      const legacy = db.collection('legacy');
      await legacy.insertMany([
        { _id: 1 as never, n: 5 },
        { _id: 2 as never, n: -5 },
      ]);
      await db.command({ collMod: 'legacy', validator: { n: { $gte: 0 } }, validationLevel: 'moderate' });
      await legacy.updateOne({ _id: 2 as never }, { $set: { n: -6 } });
      expect((await serverError(legacy.updateOne({ _id: 1 as never }, { $set: { n: -1 } }))).code).toBe(121);
      expect((await serverError(legacy.insertOne({ n: -1 }))).code).toBe(121);
      await db.command({ collMod: 'legacy', validationLevel: 'strict' });
      expect((await serverError(legacy.updateOne({ _id: 2 as never }, { $set: { n: -7 } }))).code).toBe(121);
      await db.command({ collMod: 'legacy', validationLevel: 'off' });
      await legacy.insertOne({ n: -100 });
    },
  );

  test('validationAction warn: mongod stores the document and logs "Document would fail validation"', async () => {
    const warned = await db.createCollection('warned', {
      validator: { n: { $type: 'int' } },
      validationAction: 'warn',
    });
    logger.lines.length = 0;
    await warned.insertOne({ n: 'x' });
    expect(await warned.countDocuments()).toBe(1);
    expect(logger.lines.some((line) => line.startsWith('Document would fail validation'))).toBe(true);
  });

  test(
    'mongod refuses unknown and unsupported $jsonSchema keywords at ' +
      'create and collMod with code 9 (FailedToParse)',
    async () => {
      await expect(db.createCollection('bad1', { validator: { $jsonSchema: { foo: 1 } } })).rejects.toMatchObject({
        code: 9,
        message: 'Unknown $jsonSchema keyword: foo',
      });
      await expect(
        db.createCollection('bad2', { validator: { $jsonSchema: { format: 'email' } } }),
      ).rejects.toMatchObject({
        code: 9,
        message: "$jsonSchema keyword 'format' is not currently supported",
      });
      await expect(
        db.createCollection('bad3', { validator: { $jsonSchema: { type: 'integer' } } }),
      ).rejects.toMatchObject({ code: 9 });
      await expect(
        db.command({ collMod: 'items', validator: { $jsonSchema: { properties: { a: { $ref: '#' } } } } }),
      ).rejects.toMatchObject({ code: 9 });
      await expect(db.createCollection('bad4', { validationLevel: 'sometimes' })).rejects.toMatchObject({
        code: 2,
        codeName: 'BadValue',
      });
      expect(await db.listCollections({ name: /^bad/ }).toArray()).toEqual([]);
    },
  );

  test('mongod evaluates a validator under the collection default collation', async () => {
    const tagged = await db.createCollection('collated', {
      collation: { locale: 'en', strength: 2 },
      validator: { kind: 'book' },
    });
    await tagged.insertOne({ kind: 'BOOK' });
    expect((await serverError(tagged.insertOne({ kind: 'dvd' }))).code).toBe(121);
  });
});
