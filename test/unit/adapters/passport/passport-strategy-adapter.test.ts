import { Strategy } from 'passport-strategy';
import { runPassportStrategy } from '../../../../src/adapters/passport/passport-strategy-adapter';
import { Forbidden, NotAuthenticated } from '../../../../src/domain/errors';

/** A strategy whose behaviour the request body picks. */
class ScriptedStrategy extends Strategy {
  override authenticate(this: any, req: { body: Record<string, any> }): void {
    const { action, value } = req.body;
    if (action === 'throw') throw new Error('boom');
    setImmediate(() => {
      if (action === 'success') this.success({ id: value }, { note: 'info' });
      else if (action === 'fail') this.fail(value, 401);
      else if (action === 'fail-status') this.fail(400);
      else if (action === 'error') this.error(value);
      else if (action === 'pass') this.pass();
      else if (action === 'redirect') this.redirect('/elsewhere');
      else if (action === 'twice') {
        this.success({ id: 1 });
        this.fail('late');
      }
    });
  }
}

const run = (body: Record<string, unknown>, mapFailure?: Parameters<typeof runPassportStrategy>[2]) =>
  runPassportStrategy(new ScriptedStrategy(), { body, headers: {} }, mapFailure);

describe('runPassportStrategy', () => {
  it('resolves with the user and info on success', async () => {
    await expect(run({ action: 'success', value: 3 })).resolves.toEqual({ user: { id: 3 }, info: { note: 'info' } });
  });

  it('turns fail into NotAuthenticated with the challenge message', async () => {
    await expect(run({ action: 'fail', value: { message: 'Missing credentials' } })).rejects.toMatchObject({
      name: 'NotAuthenticated',
      message: 'Missing credentials',
    });
    await expect(run({ action: 'fail', value: 'Bad token' })).rejects.toMatchObject({ message: 'Bad token' });
    await expect(run({ action: 'fail-status' })).rejects.toMatchObject({
      name: 'NotAuthenticated',
      message: 'Not authenticated',
    });
    await expect(run({ action: 'fail', value: new Forbidden('kept') })).rejects.toMatchObject({ name: 'Forbidden' });
  });

  it('uses the given failure mapper', async () => {
    await expect(
      run({ action: 'fail', value: 'x' }, () => new NotAuthenticated('Invalid login')),
    ).rejects.toMatchObject({ message: 'Invalid login' });
  });

  it('keeps service errors passed to error() and hides any other as GeneralError', async () => {
    await expect(run({ action: 'error', value: new Forbidden('no') })).rejects.toMatchObject({ name: 'Forbidden' });
    await expect(run({ action: 'error', value: new Error('database password is hunter2') })).rejects.toMatchObject({
      name: 'GeneralError',
      message: 'Authentication failed',
    });
    await expect(run({ action: 'throw' })).rejects.toMatchObject({ name: 'GeneralError' });
  });

  it('rejects pass and redirect, and settles only once', async () => {
    await expect(run({ action: 'pass' })).rejects.toMatchObject({ name: 'NotAuthenticated' });
    await expect(run({ action: 'redirect' })).rejects.toMatchObject({ name: 'GeneralError' });
    await expect(run({ action: 'twice' })).resolves.toMatchObject({ user: { id: 1 } });
  });

  it('keeps concurrent runs of one strategy apart', async () => {
    const strategy = new ScriptedStrategy();
    const runs = Array.from({ length: 20 }, (_, index) =>
      runPassportStrategy(strategy, {
        body: index % 2 ? { action: 'success', value: index } : { action: 'fail', value: `no ${index}` },
        headers: {},
      }).then(
        (result) => result.user.id,
        (error: Error) => error.message,
      ),
    );
    expect(await Promise.all(runs)).toEqual(
      Array.from({ length: 20 }, (_, index) => (index % 2 ? index : `no ${index}`)),
    );
  });
});
