import { IsBoolean, IsInt, IsOptional, IsString, MaxLength, Min, MinLength } from 'class-validator';

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

export class PatchMessageDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(5000)
  text?: string;

  @IsOptional()
  @IsBoolean()
  read?: boolean;
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
}

/** The custom method's data. */
export class MarkReadDto {
  @IsString()
  @MaxLength(64)
  id!: string;
}
