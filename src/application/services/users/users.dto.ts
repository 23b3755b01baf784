import { IsArray, IsBoolean, IsEmail, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { partialOf, queryOf } from '../../validation/derived-dto';

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

/** Replacement data: the sign-up fields, and the current password (required to change the password or the e-mail). */
export class UpdateUserDto extends CreateUserDto {
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  currentPassword?: string;
}

/**
 * Patch data: the sign-up fields, each optional, the current password (required to change the
 * password or the e-mail), and `disabled`, which only an administrator may write (the policy).
 */
export class PatchUserDto extends partialOf(CreateUserDto) {
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  currentPassword?: string;

  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}

/**
 * Fields a client may filter users by (never the password). The e-mail is any string here: a
 * lookup by what someone typed (the login's is one) finds nobody rather than failing.
 */
export class UsersQueryDto extends queryOf(CreateUserDto, ['name']) {
  @IsOptional()
  @IsString()
  email?: string;
}

/**
 * What an answer may carry: name and e-mail, the roles an operator granted (`npm run grant-role`), and whether an
 * administrator disabled it.
 */
export class UserRecordDto extends UsersQueryDto {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  roles?: string[];

  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}
