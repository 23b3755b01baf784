import 'reflect-metadata';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import type { HookContext } from '../../../../src/application/hooks/hook-context';
import { validateQuery } from '../../../../src/application/validation/validate-query.hook';

/** Fields without class-field initializers, not even `undefined` ones: instances have none of them. */
class NotesQueryDto {
  @IsOptional()
  @IsString()
  declare title?: string;

  @IsOptional()
  @IsBoolean()
  declare done?: boolean;
}

describe('validateQuery learns the queryable fields from the validators', () => {
  it('accepts and converts the fields of a DTO whose instances carry none of them', async () => {
    const context = {
      params: { query: { title: 'a', done: 'true', $sort: { title: 1 } } },
      service: {},
    } as unknown as HookContext;
    await validateQuery(NotesQueryDto)(context);
    expect(context.params.query).toEqual({ title: 'a', done: true, $sort: { title: 1 } });
  });

  it('still refuses a field the DTO does not declare', async () => {
    const context = { params: { query: { author: 'x' } }, service: {} } as unknown as HookContext;
    await expect(validateQuery(NotesQueryDto)(context)).rejects.toMatchObject({
      name: 'BadRequest',
      message: "'author' is not a queryable field",
    });
  });
});
