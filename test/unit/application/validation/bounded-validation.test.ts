import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsOptional, IsString, ValidateNested, type ValidationError } from 'class-validator';
import {
  CreateMessageDto,
  MessagesQueryDto,
  PatchMessageDto,
} from '../../../../src/application/services/messages/messages.dto';
import { CreateUserDto } from '../../../../src/application/services/users/users.dto';
import { DATA_LIMITS } from '../../../../src/application/validation/check-data-shape';
import { validateData } from '../../../../src/application/validation/validate-data.hook';
import { validateQuery } from '../../../../src/application/validation/validate-query.hook';
import { FieldErrors, MAX_FIELD_ERRORS, toBadRequest } from '../../../../src/application/validation/validation-errors';

class TagsDto {
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
  @IsOptional() @IsObject() meta?: Record<string, unknown>;
  @IsOptional() @IsArray() matrix?: unknown[];
}

class TreeDto {
  @IsInt() value!: number;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => TreeDto) children?: TreeDto[];
}

/** Runs a data hook as the service pipeline does; the error it throws, or undefined. */
async function run(
  dto: new () => object,
  data: unknown,
  partial = false,
): Promise<{ error?: any; data: unknown; ms: number }> {
  const context = { data, params: {} } as any;
  const started = performance.now();
  try {
    await validateData(dto, { partial })(context);
    return { data: context.data, ms: performance.now() - started };
  } catch (error) {
    return { error, data: context.data, ms: performance.now() - started };
  }
}

const wide = (count: number, value: unknown = 'x') =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, value]));
const answerBytes = (error: { toJSON(): unknown }) => JSON.stringify(error.toJSON()).length;
/** Before the bound these inputs took 2-7 s; a few ms now, with headroom for a loaded shared machine. */
const MAX_MS = 1000;

describe('FieldErrors and toBadRequest: a bounded 400', () => {
  it(`lists at most ${MAX_FIELD_ERRORS} fields and says that more were cut`, () => {
    const errors = new FieldErrors();
    for (let index = 0; index < 25; index++) errors.add(`f${index}`, ['is wrong']);
    const error = errors.toBadRequest('Invalid data');
    expect(Object.keys(error.errors as object)).toHaveLength(MAX_FIELD_ERRORS);
    expect(error.message).toBe(`Invalid data (the first ${MAX_FIELD_ERRORS} problems are listed; more were cut)`);
  });

  it('keeps the message as it is when nothing was cut', () => {
    const errors = new FieldErrors();
    errors.add('email', ['email must be an email']);
    expect(errors.toBadRequest('Invalid data')).toMatchObject({
      message: 'Invalid data',
      errors: { email: ['email must be an email'] },
    });
  });

  it('cuts long field names and messages short, and keeps __proto__ an ordinary key', () => {
    const errors = new FieldErrors();
    errors.add('n'.repeat(100_000), ['m'.repeat(100_000)]);
    errors.add('__proto__', ['should not exist']);
    const json = JSON.stringify(errors.toBadRequest('Invalid data').toJSON());
    expect(json.length).toBeLessThan(600);
    expect(JSON.parse(json).errors.__proto__).toEqual(['should not exist']);
  });

  it('bounds what class-validator reports, nested children included', () => {
    const failures: ValidationError[] = Array.from({ length: 50 }, (_, index) => ({
      property: `p${index}`,
      constraints: { isString: `p${index} must be a string` },
      children: [{ property: 'inner', constraints: { isInt: 'inner must be an integer' }, children: [] }],
    }));
    const error = toBadRequest('Invalid data', failures);
    expect(Object.keys(error.errors as object)).toEqual(
      ['p0', 'p0.inner', ...Array.from({ length: 9 }, (_, i) => [`p${i + 1}`, `p${i + 1}.inner`]).flat()].slice(
        0,
        MAX_FIELD_ERRORS,
      ),
    );
    expect(error.message).toMatch(/more were cut/);
  });
});

describe('validateData stops early on wide and large data', () => {
  it('answers the 95,000-key sign-up (issue 25, finding 3) with a bounded 400 in milliseconds', async () => {
    const body = { email: 'a@example.com', password: 'long enough', ...wide(95_000) };
    const { error, ms } = await run(CreateUserDto, body);
    console.log(`95,000 unknown keys: ${ms.toFixed(1)} ms, answer ${answerBytes(error)} bytes`);
    expect(error).toMatchObject({ name: 'BadRequest', code: 400 });
    expect(Object.keys(error.errors)).toHaveLength(MAX_FIELD_ERRORS);
    expect(error.errors.k0).toEqual(['property k0 should not exist']);
    expect(error.message).toMatch(/more were cut/);
    expect(answerBytes(error)).toBeLessThan(2048);
    // Before the bound: 4-8 s and a 3.9 MB answer.
    expect(ms).toBeLessThan(MAX_MS);
  });

  it('lists a few unknown fields whole, as before', async () => {
    const { error } = await run(CreateMessageDto, { text: 'x', admin: true, role: 'root' });
    expect(error).toMatchObject({
      message: 'Invalid data',
      errors: { admin: ['property admin should not exist'], role: ['property role should not exist'] },
    });
  });

  it('checks nested DTOs the same way', async () => {
    expect((await run(PatchMessageDto, { $inc: { likes: 1 } }, true)).error).toBeUndefined();
    const few = await run(PatchMessageDto, { $inc: { likes: 1, views: 5 } }, true);
    expect(few.error).toMatchObject({ errors: { '$inc.views': ['property views should not exist'] } });
    const many = await run(PatchMessageDto, { $inc: wide(100_000, 1) }, true);
    expect(Object.keys(many.error.errors)).toHaveLength(MAX_FIELD_ERRORS);
    expect(many.ms).toBeLessThan(MAX_MS);
  });

  it('follows nested DTOs into arrays, at any depth', async () => {
    const tree = { value: 1, children: [{ value: 2, children: [{ value: 3, extra: true }] }] };
    const { error } = await run(TreeDto, tree);
    expect(error).toMatchObject({ errors: { 'children.0.children.0.extra': ['property extra should not exist'] } });
    expect((await run(TreeDto, { value: 1, children: [{ value: 2 }] })).error).toBeUndefined();
  });

  it('refuses __proto__, constructor and prototype keys at any depth, free-form values included', async () => {
    const parsed = JSON.parse('{"meta": {"a": {"__proto__": {"admin": true}}}}');
    await expect(run(TagsDto, parsed)).resolves.toMatchObject({ error: { message: "Invalid field name '__proto__'" } });
    await expect(run(TagsDto, { meta: { constructor: { prototype: 1 } } })).resolves.toMatchObject({
      error: { message: "Invalid field name 'constructor'" },
    });
  });

  it(
    `bounds arrays to ${DATA_LIMITS.arrayLength} elements and ` + `free-form objects to ${DATA_LIMITS.objectKeys} keys`,
    async () => {
      expect(
        (await run(TagsDto, { tags: Array.from({ length: DATA_LIMITS.arrayLength }, () => 't') })).error,
      ).toBeUndefined();
      const long = await run(TagsDto, { tags: Array.from({ length: 500_000 }, () => 't') });
      expect(long.error).toMatchObject({ errors: { tags: [`must have at most ${DATA_LIMITS.arrayLength} elements`] } });
      expect((await run(TagsDto, { meta: wide(DATA_LIMITS.objectKeys) })).error).toBeUndefined();
      const widest = await run(TagsDto, { meta: wide(100_000) });
      expect(widest.error).toMatchObject({ errors: { meta: [`must have at most ${DATA_LIMITS.objectKeys} keys`] } });
      expect(Math.max(long.ms, widest.ms)).toBeLessThan(MAX_MS);
    },
  );

  it(`bounds the values of one call to ${DATA_LIMITS.values} and its items to ${DATA_LIMITS.items}`, async () => {
    const matrix = Array.from({ length: 20 }, () => Array.from({ length: 1000 }, () => 0));
    const { error } = await run(TagsDto, { matrix });
    expect(error.message).toMatch(/more were cut/);
    expect(Object.values(error.errors).flat()).toContain(`the data holds more than ${DATA_LIMITS.values} values`);
    const items = await run(
      CreateMessageDto,
      Array.from({ length: 300_000 }, () => ({})),
    );
    expect(items.error).toMatchObject({
      name: 'BadRequest',
      message: `At most ${DATA_LIMITS.items} items can be sent in one call`,
    });
    const valid = await run(
      CreateMessageDto,
      Array.from({ length: DATA_LIMITS.items }, (_, index) => ({ text: `m${index}` })),
    );
    expect(valid.error).toBeUndefined();
    expect(valid.data).toHaveLength(DATA_LIMITS.items);
  });

  it('stops at the first invalid item of a multi-create', async () => {
    const { error } = await run(CreateMessageDto, [{ text: 'ok' }, { text: 1 }, { text: 2 }]);
    expect(error).toMatchObject({ message: 'Invalid data', errors: { text: expect.any(Array) } });
  });
});

describe('validateQuery answers bounded errors', () => {
  const find = async (query: Record<string, unknown>) => {
    const context = { params: { query }, service: { id: '_id' } } as any;
    return validateQuery(MessagesQueryDto)(context).then(
      () => undefined,
      (error: any) => error,
    );
  };

  it('cuts a long value and a long field name short (socket queries have no URL limit)', async () => {
    const notANumber = await find({ createdAt: 'x'.repeat(900_000) });
    expect(notANumber).toMatchObject({ name: 'BadRequest', message: "'createdAt' must be a number" });
    expect(answerBytes(notANumber)).toBeLessThan(400);
    const unknown = await find({ ['f'.repeat(900_000)]: 1 });
    expect(unknown.message).toMatch(/^'f{100}\.\.\. \(900000 characters\)' is not a queryable field$/);
    expect(answerBytes(unknown)).toBeLessThan(500);
    const sorted = await find({ $sort: { ['s'.repeat(900_000)]: 1 } });
    expect(answerBytes(sorted)).toBeLessThan(500);
  });
});
