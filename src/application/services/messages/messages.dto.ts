import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';

export class CreateMessageDto {
  @IsString()
  @MinLength(1)
  @MaxLength(5000)
  text!: string;

  /** Set from the authenticated user when there is one; internal callers may set it. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  userId?: string;
}

/** The one counter a client may move, by at most one per call. */
export class LikesIncrementDto {
  @IsInt()
  @Min(-1)
  @Max(1)
  likes!: number;
}

export class PatchMessageDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(5000)
  text?: string;

  @IsOptional()
  @IsBoolean()
  read?: boolean;

  /**
   * `{ $inc: { likes: 1 } }`: the only update operator a client may send (the store applies it
   * atomically, so concurrent likes all count); any other `$` key or field is a 400.
   */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LikesIncrementDto)
  $inc?: LikesIncrementDto;
}

/** Queryable fields; URL strings become these types ('true', '25', ISO dates). Initializers let the query hook list them. */
export class MessagesQueryDto {
  @IsOptional()
  @IsString()
  text?: string = undefined;

  @IsOptional()
  @IsString()
  userId?: string = undefined;

  @IsOptional()
  @IsInt()
  @Min(0)
  createdAt?: number = undefined;

  @IsOptional()
  @IsBoolean()
  read?: boolean = undefined;

  @IsOptional()
  @IsInt()
  likes?: number = undefined;
}

/** The custom method's data. */
export class MarkReadDto {
  @IsString()
  @MaxLength(64)
  id!: string;
}
