import { refuseFieldsFromServiceCallers } from '../../../../src/application/authentication/service-caller-fields.hook';
import type { HookContext } from '../../../../src/application/hooks/hook-context';

const caller = { name: 'server-b', credentialId: 'id', scopes: { users: ['patch'] } };
const contextOf = (data: unknown, serviceCaller?: object) =>
  ({ data, params: serviceCaller ? { serviceCaller } : {} }) as unknown as HookContext;

describe('refuseFieldsFromServiceCallers', () => {
  const hook = refuseFieldsFromServiceCallers('password', 'email', 'roles');

  it('refuses the guarded fields for a service caller: top level, dotted, inside update operators, in any item', () => {
    for (const data of [
      { password: 'x' },
      { 'roles.0': 'admin' },
      { $set: { email: 'a@b.c' } },
      { $unset: { 'password.hash': 1 } },
      [{ name: 'a' }, { roles: [] }],
    ]) {
      expect(() => hook(contextOf(data, caller))).toThrow(expect.objectContaining({ name: 'Forbidden' }));
    }
  });

  it('lets other fields through, and every field for callers that are not services', () => {
    expect(() => hook(contextOf({ name: 'Vic', $inc: { logins: 1 } }, caller))).not.toThrow();
    expect(() => hook(contextOf({ password: 'x', email: 'a@b.c', roles: ['admin'] }))).not.toThrow();
  });
});
