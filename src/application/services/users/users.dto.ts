import { IsEmail, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** Sign-up data: public, so every field is checked and nothing else is accepted. */
export class CreateUserDto {
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}

/** Patch data: the same fields, each optional. */
export class PatchUserDto {
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;

  @IsOptional()
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}

/** Fields a client may filter users by (never the password). Initializers let the query hook list them. */
export class UsersQueryDto {
  @IsOptional()
  @IsString()
  email?: string = undefined;

  @IsOptional()
  @IsString()
  name?: string = undefined;
}
