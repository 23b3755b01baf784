import { call } from './http';

export const PASSWORD = 'correct horse battery';

export interface Account {
  readonly user: Record<string, any>;
  readonly token: string;
}

let sequence = 0;

/** A unique email per call within this process. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${sequence++}@example.com`;
}

/** Signs up (public `POST /users`) and logs in with the local strategy. */
export async function signUpAndLogIn(base: string, email = uniqueEmail()): Promise<Account> {
  const created = await call(base, 'POST', '/users', { body: { email, password: PASSWORD } });
  if (created.status !== 201) throw new Error(`sign-up failed: ${created.status} ${created.text}`);
  const login = await call(base, 'POST', '/authentication', { body: { strategy: 'local', email, password: PASSWORD } });
  if (login.status !== 201) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { user: created.body, token: login.body.accessToken };
}
