import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { partialOf, queryOf } from '../../validation/derived-dto';

/** What a client writes; the owner (`userId`) and the counters are the server's (see the definition's `ownerField`). */
export class CreateMessageDto {
  @IsString()
  @MinLength(1)
  @MaxLength(5000)
  text!: string;
}

/** The one counter a client may move, by at most one per call. */
export class LikesIncrementDto {
  @IsInt()
  @Min(-1)
  @Max(1)
  likes!: number;
}

/** The text (optional), plus what only a patch sets: the read flag and a like. */
export class PatchMessageDto extends partialOf(CreateMessageDto) {
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

/** Queryable fields: every field of a patch, and the server's; URL strings become their types ('true', '25', dates). */
export class MessagesQueryDto extends queryOf(PatchMessageDto) {
  @IsOptional()
  @IsString()
  userId?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  createdAt?: number;

  @IsOptional()
  @IsInt()
  likes?: number;
}

/**
 * What an answer may carry: the queryable fields, who liked it (its author and admins see it) and whether the reader
 * did.
 */
export class MessageRecordDto extends MessagesQueryDto {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  likedBy?: string[];

  @IsOptional()
  @IsBoolean()
  liked?: boolean;
}

/** The custom method's data. */
export class MarkReadDto {
  @IsString()
  @MaxLength(64)
  id!: string;
}
