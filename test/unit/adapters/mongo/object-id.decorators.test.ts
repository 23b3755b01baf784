import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ObjectId } from 'mongodb';
import { IsObjectId, ToObjectId } from '../../../../src/adapters/mongo/object-id.decorators';

const HEX = '568225fbfe21222432e836ff';

class MessageDto {
  @ToObjectId()
  @IsObjectId()
  userId!: unknown;

  @ToObjectId()
  @IsObjectId({ each: true })
  readers: unknown[] = [];
}

describe('@IsObjectId and @ToObjectId', () => {
  it('converts valid strings (and each one of an array) to ObjectIds and validates them', () => {
    const dto = plainToInstance(MessageDto, { userId: HEX, readers: [HEX] });
    expect(dto.userId).toBeInstanceOf(ObjectId);
    expect((dto.readers[0] as ObjectId).toHexString()).toBe(HEX);
    expect(validateSync(dto)).toEqual([]);
  });

  it('leaves invalid values as they are, so the validator reports them', () => {
    const dto = plainToInstance(MessageDto, { userId: 'nope', readers: ['bad', HEX] });
    expect(dto.userId).toBe('nope');
    const errors = validateSync(dto);
    expect(errors.map((error) => error.property).sort()).toEqual(['readers', 'userId']);
    expect(errors.find((error) => error.property === 'userId')!.constraints).toEqual({
      isObjectId: 'userId must be a valid ObjectId',
    });
  });

  it('validates ObjectId instances without a transform', () => {
    const dto = new MessageDto();
    dto.userId = new ObjectId();
    expect(validateSync(dto)).toEqual([]);
    dto.userId = { $ne: null };
    expect(validateSync(dto)).toHaveLength(1);
  });
});
