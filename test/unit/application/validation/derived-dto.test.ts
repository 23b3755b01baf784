import 'reflect-metadata';
import { Type } from 'class-transformer';
import { getMetadataStorage, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import type { HookContext } from '../../../../src/application/hooks/hook-context';
import { partialOf, pickOf, queryOf } from '../../../../src/application/validation/derived-dto';
import { validateData } from '../../../../src/application/validation/validate-data.hook';
import { validateQuery } from '../../../../src/application/validation/validate-query.hook';

class RatingDto {
  @IsInt()
  @Min(1)
  @Max(5)
  stars!: number;
}

class CreateBookDto {
  @IsString()
  @MaxLength(10)
  title!: string;

  @IsInt()
  @Min(0)
  pages!: number;

  @ValidateNested()
  @Type(() => RatingDto)
  rating!: RatingDto;
}

const PatchBookDto = partialOf(CreateBookDto, 'PatchBookDto');

async function errorOf(hook: (context: HookContext) => Promise<void>, context: Partial<HookContext>): Promise<any> {
  return hook(context as HookContext).then(
    () => undefined,
    (error: unknown) => error,
  );
}

const dataError = (dto: Parameters<typeof validateData>[0], data: unknown, partial = false) =>
  errorOf(validateData(dto, { partial }), { data, params: {} });
const queryError = (dto: Parameters<typeof validateQuery>[0], query: Record<string, unknown>) =>
  errorOf(validateQuery(dto), { params: { query }, service: {} } as Partial<HookContext>);

describe('partialOf', () => {
  it('makes every field optional and keeps its validators, nested types included', async () => {
    expect(await dataError(PatchBookDto, {}, true)).toBeUndefined();
    expect(await dataError(PatchBookDto, {})).toBeUndefined();
    expect(await dataError(PatchBookDto, { title: 'far too long a title' })).toMatchObject({
      name: 'BadRequest',
      errors: { title: expect.any(Array) },
    });
    expect(await dataError(PatchBookDto, { pages: -1 })).toMatchObject({ errors: { pages: expect.any(Array) } });
    expect(await dataError(PatchBookDto, { rating: { stars: 9 } })).toMatchObject({
      errors: { 'rating.stars': expect.any(Array) },
    });
    expect(await dataError(PatchBookDto, { rating: { stars: 4, extra: 1 } })).toMatchObject({
      errors: { 'rating.extra': expect.any(Array) },
    });
    expect(await dataError(PatchBookDto, { author: 'x' })).toMatchObject({ errors: { author: expect.any(Array) } });
  });

  it('leaves the source as it was: its fields stay required', async () => {
    expect(await dataError(CreateBookDto, { title: 't' })).toMatchObject({ errors: { pages: expect.any(Array) } });
  });

  it('holds the metadata as its own, under the name it is given (the OpenAPI schema name)', () => {
    expect(PatchBookDto.name).toBe('PatchBookDto');
    const own = getMetadataStorage()
      .getTargetValidationMetadatas(PatchBookDto, '', false, false)
      .filter((metadata) => metadata.target === PatchBookDto);
    expect(new Set(own.map((metadata) => metadata.propertyName))).toEqual(new Set(['title', 'pages', 'rating']));
  });

  it('can be extended with fields of its own', async () => {
    class PatchWithFlagDto extends partialOf(CreateBookDto) {
      @IsOptional()
      @IsString()
      flag?: string;
    }
    expect(await dataError(PatchWithFlagDto, { flag: 'x', pages: 3 })).toBeUndefined();
    expect(await dataError(PatchWithFlagDto, { flag: 1, title: 2 })).toMatchObject({
      errors: { flag: expect.any(Array), title: expect.any(Array) },
    });
  });
});

describe('pickOf', () => {
  it('keeps only the named fields, required ones still required', async () => {
    const TitleDto = pickOf(CreateBookDto, ['title'], 'TitleDto');
    expect(await dataError(TitleDto, {})).toMatchObject({ errors: { title: expect.any(Array) } });
    expect(await dataError(TitleDto, { title: 'ok' })).toBeUndefined();
    expect(await dataError(TitleDto, { title: 'ok', pages: 1 })).toMatchObject({
      errors: { pages: expect.any(Array) },
    });
  });

  it('refuses a field the source does not validate', () => {
    expect(() => pickOf(CreateBookDto, ['author' as never])).toThrow(
      'CreateBookDto has no validated field named author',
    );
  });
});

describe('queryOf', () => {
  const BooksQueryDto = queryOf(CreateBookDto, ['title', 'pages'], 'BooksQueryDto');

  it('gives the query hook its fields, converted to their declared types and checked by their validators', async () => {
    const context = { params: { query: { pages: { $gte: '10' }, title: 'a' } }, service: {} } as unknown as HookContext;
    await validateQuery(BooksQueryDto)(context);
    expect(context.params.query).toEqual({ pages: { $gte: 10 }, title: 'a' });
    expect(await queryError(BooksQueryDto, { pages: '-1' })).toMatchObject({
      name: 'BadRequest',
      errors: { pages: expect.any(Array) },
    });
    expect(await queryError(BooksQueryDto, { rating: '1' })).toMatchObject({
      name: 'BadRequest',
      message: "'rating' is not a queryable field",
    });
  });
});
