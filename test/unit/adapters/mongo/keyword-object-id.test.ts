import Ajv from 'ajv';
import { ObjectId } from 'mongodb';
import { keywordObjectId, ObjectIdSchema } from '../../../../src/adapters/mongo';

const HEX = '568225fbfe21222432e836ff';

class ForeignObjectId {
  readonly _bsontype = 'ObjectId';
  constructor(private readonly hex: string) {}
  toHexString(): string {
    return this.hex;
  }
}

function validator() {
  const ajv = new Ajv();
  ajv.addKeyword(keywordObjectId);
  return ajv.compile({
    type: 'object',
    properties: { userId: ObjectIdSchema(), tags: { type: 'array', items: { type: 'string', objectid: true } } },
    additionalProperties: false,
  });
}

describe('keywordObjectId and ObjectIdSchema', () => {
  it('registers as the objectid keyword', () => {
    expect(keywordObjectId.keyword).toBe('objectid');
    expect(ObjectIdSchema()).toEqual({
      anyOf: [
        { type: 'string', objectid: true },
        { type: 'object', objectid: true },
      ],
    });
  });

  it('converts a valid string in place to an ObjectId, also inside arrays', () => {
    const validate = validator();
    const data: any = { userId: HEX, tags: [HEX] };
    expect(validate(data)).toBe(true);
    expect(data.userId).toBeInstanceOf(ObjectId);
    expect(data.userId.toHexString()).toBe(HEX);
    expect(data.tags[0]).toBeInstanceOf(ObjectId);
  });

  it('accepts ObjectId instances, re-wrapping those of another bson copy', () => {
    const validate = validator();
    const own = new ObjectId(HEX);
    const data: any = { userId: own };
    expect(validate(data)).toBe(true);
    expect(data.userId).toBe(own);
    const foreign: any = { userId: new ForeignObjectId(HEX) };
    expect(validate(foreign)).toBe(true);
    expect(foreign.userId).toBeInstanceOf(ObjectId);
  });

  it('fails validation (never throws) for invalid strings, numbers and plain objects', () => {
    const validate = validator();
    for (const userId of ['nope', 'lessonKTDA03', 12, { _bsontype: 'ObjectId', id: 'x' }, null]) {
      expect(validate({ userId })).toBe(false);
    }
    expect(validate.errors?.some((error) => error.keyword === 'objectid' || error.keyword === 'anyOf')).toBe(true);
  });

  it('validates a root value without replacing it', () => {
    const ajv = new Ajv();
    ajv.addKeyword(keywordObjectId);
    const validate = ajv.compile({ type: 'string', objectid: true });
    expect(validate(HEX)).toBe(true);
    expect(validate('bad')).toBe(false);
  });

  it('objectid: false switches the check off', () => {
    const ajv = new Ajv();
    ajv.addKeyword(keywordObjectId);
    expect(ajv.compile({ type: 'string', objectid: false })('anything')).toBe(true);
  });
});
