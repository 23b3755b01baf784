import { BSONError } from 'bson';
import {
  MongoInvalidArgumentError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
} from 'mongodb';
import { mapMongoError } from '../../../../src/adapters/mongo';
import { NotFound } from '../../../../src/domain/errors';

const serverError = (fields: Record<string, unknown>) =>
  new MongoServerError({ errmsg: 'server text with db.collection names', ...fields } as any);

describe('mapMongoError', () => {
  it('maps duplicate keys to 409 with the fields from keyPattern, keyValue or the message', () => {
    const byPattern = mapMongoError(
      serverError({ code: 11000, keyPattern: { email: 1, tenant: 1 }, keyValue: { email: 'a', tenant: 'b' } }),
    );
    expect(byPattern.toJSON()).toMatchObject({ name: 'Conflict', code: 409, data: { fields: ['email', 'tenant'] } });
    const byValue = mapMongoError(serverError({ code: 11000, keyValue: { email: 'a' } }));
    expect(byValue.data).toEqual({ fields: ['email'] });
    const byMessage = mapMongoError(
      serverError({
        code: 11000,
        errmsg:
          'E11000 duplicate key error collection: app.users index: email_1 dup ' +
          'key: { email: "a, b: c", "profile.nick": 1 }',
      }),
    );
    expect(byMessage.data).toEqual({ fields: ['email', 'profile.nick'] });
    expect(JSON.stringify(byMessage.toJSON())).not.toMatch(/E11000|app\.users|email_1/);
  });

  it('maps bulk write duplicates through writeErrors', () => {
    const bulk = Object.assign(new Error('bulk'), {
      name: 'MongoBulkWriteError',
      code: 11000,
      writeErrors: [{ code: 11000, err: { keyPattern: { sku: 1 } } }],
    });
    expect(mapMongoError(bulk).toJSON()).toMatchObject({ code: 409, data: { fields: ['sku'] } });
  });

  it('maps network and server selection failures to 503', () => {
    for (const error of [
      new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:1'),
      new MongoServerSelectionError('timeout', {} as any),
      new MongoNotConnectedError('no'),
      serverError({ code: 91 }),
    ]) {
      const mapped = mapMongoError(error);
      expect({ name: mapped.name, code: mapped.code }).toEqual({ name: 'Unavailable', code: 503 });
      expect(mapped.message).not.toContain('127.0.0.1');
    }
  });

  it('maps invalid values to 400', () => {
    for (const error of [
      new BSONError('input must be a 24 character hex string'),
      new MongoInvalidArgumentError('bad'),
      serverError({ code: 2, codeName: 'BadValue' }),
      serverError({ code: 51091 }),
    ]) {
      expect(mapMongoError(error).code).toBe(400);
    }
    expect(mapMongoError(serverError({ code: 2, codeName: 'BadValue' })).data).toEqual({ reason: 'BadValue' });
  });

  it('maps anything else to a 500 GeneralError without the driver text, keeping the original as cause', () => {
    const original = serverError({ code: 8000, errmsg: 'secret internals' });
    const mapped = mapMongoError(original);
    expect(mapped.toJSON()).toEqual({
      name: 'GeneralError',
      code: 500,
      className: 'general-error',
      message: 'Database operation failed',
    });
    expect((mapped as any).cause).toBe(original);
    expect(mapMongoError('a string').code).toBe(500);
  });

  it('passes service errors through unchanged', () => {
    const error = new NotFound('missing');
    expect(mapMongoError(error)).toBe(error);
  });
});
