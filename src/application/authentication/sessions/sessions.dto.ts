import { IsOptional, IsString } from 'class-validator';

/** Sessions are started by logins and changed by refreshes only: no client writes one. */
export class SessionWriteDto {}

/**
 * A user's sessions are few: listed whole (the policy keeps everyone to their own), or those of one user for the
 * server's own calls.
 */
export class SessionsQueryDto {
  @IsOptional()
  @IsString()
  userId?: string;
}
