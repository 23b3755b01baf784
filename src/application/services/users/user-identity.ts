import type { CreateUserDto } from './users.dto';

/**
 * Where user accounts live and which of their fields identify a user: the users service's path,
 * the login field, the password field (stored as its hash, never returned) and the roles field.
 * The users definition and hooks, and the authentication the composition configures, all read
 * them here; the DTO's field names must match (checked by the type below).
 */
export const USER_IDENTITY = {
  path: 'users',
  loginField: 'email',
  passwordField: 'password',
  rolesField: 'roles',
  /** `true` on an account an administrator disabled: it cannot log in and its sessions have ended. */
  disabledField: 'disabled',
} as const satisfies {
  path: string;
  loginField: keyof CreateUserDto;
  passwordField: keyof CreateUserDto;
  rolesField: string;
  disabledField: string;
};
