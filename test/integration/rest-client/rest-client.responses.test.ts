import { createApp } from '../../../src/application/app/application';
import * as errors from '../../../src/domain/errors';
import { buildBehaviourApp, rawRoutes, type GateService } from './support/behaviour-app';
import { CLIENT_LIBRARIES } from './support/client-libraries';
import { closedPort, startServer, type RunningServer } from './support/test-server';

/** Settles `call` and returns its rejection reason (fails the test when it resolves). */
async function rejection(call: Promise<unknown>): Promise<any> {
  const outcome = await call.then(
    (value) => ({ resolved: value }),
    (reason: unknown) => ({ reason }),
  );
  if (!('reason' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.resolved)}`);
  return outcome.reason;
}

describe.each(CLIENT_LIBRARIES)('REST client responses over $name', (library) => {
  let server: RunningServer;
  let gate: GateService;

  beforeAll(async () => {
    const built = buildBehaviourApp();
    gate = built.gate;
    server = await startServer(built.app, rawRoutes);
  });
  afterAll(async () => {
    gate.open();
    await server.close();
  });

  const remote = (path: string, options?: { timeout?: number }) =>
    createApp().use(path, library.client(server.url, options).service(path)).service(path);

  it('resolves 204 as null for every method', async () => {
    const empty = remote('empty');
    expect(await empty.find()).toBeNull();
    expect(await empty.get(1)).toBeNull();
    expect(await empty.create({})).toBeNull();
    expect(await empty.update(1, {})).toBeNull();
    expect(await empty.patch(1, {})).toBeNull();
    expect(await empty.remove(1)).toBeNull();
    expect(await remote('raw/no-content').find()).toBeNull();
  });

  it.each(Object.entries(errors.errorClasses))('revives %s with its status and response', async (name, cls) => {
    const code = new cls().code;
    const error = await rejection(remote('errors').get(code));
    expect(error).toBeInstanceOf(cls);
    expect(error).toMatchObject({ name, code, message: `failed with ${code}`, data: { id: String(code) } });
    expect(error.response).toMatchObject({
      status: code,
      headers: expect.objectContaining({ 'content-type': expect.stringContaining('application/json') }),
    });
  });

  it('revives an unexpected server failure as GeneralError', async () => {
    const error = await rejection(remote('errors').find());
    expect(error).toBeInstanceOf(errors.GeneralError);
    expect(error.response.status).toBe(500);
  });

  it('chooses the class by status for a non-JSON error body', async () => {
    const badGateway = await rejection(remote('raw/bad-gateway').find());
    expect(badGateway).toBeInstanceOf(errors.BadGateway);
    expect(badGateway.data.body).toContain('upstream down');
    expect(badGateway.response.status).toBe(502);
    expect(await rejection(remote('raw/empty-error').find())).toBeInstanceOf(errors.Gone);
    const teapot = await rejection(remote('raw/teapot').find());
    expect(teapot).toBeInstanceOf(errors.BadRequest);
    expect(teapot.response.status).toBe(418);
  });

  it('fails on a success body that is not JSON', async () => {
    const error = await rejection(remote('raw/text-ok').find());
    expect(error).toBeInstanceOf(errors.GeneralError);
    expect(error.data).toEqual({ status: 200, body: 'hello' });
  });

  it('fails with Unavailable when nothing listens', async () => {
    const port = await closedPort();
    const unreachable = createApp()
      .use('x', library.client(`http://127.0.0.1:${port}`).service('x'))
      .service('x');
    const error = await rejection(unreachable.find());
    expect(error).toBeInstanceOf(errors.Unavailable);
    expect(error.code).toBe(503);
  });

  it('fails with Timeout after the client timeout', async () => {
    const error = await rejection(remote('gate', { timeout: 50 }).find());
    expect(error).toBeInstanceOf(errors.Timeout);
    expect(error.message).toContain('50 ms');
  });

  it('fails with an AbortError when params.connection.signal aborts', async () => {
    const controller = new AbortController();
    const call = rejection(remote('gate').find({ connection: { signal: controller.signal } }));
    await gate.started;
    controller.abort();
    const error = await call;
    expect(error).toMatchObject({ name: 'AbortError', message: expect.stringContaining('aborted') });
  });

  it('emits no event for a failed call', async () => {
    const service = remote('errors');
    const events: unknown[] = [];
    service.on('removed', (item: unknown) => events.push(item));
    expect(await rejection(service.remove(1))).toBeInstanceOf(errors.MethodNotAllowed);
    expect(events).toEqual([]);
  });
});
