import { AdapterBase } from '../../../../src/application/adapter/adapter-base';
import type { Params } from '../../../../src/ports/service-params';

/** Records what the public methods pass down to the hook-less ones. */
class RecordingAdapter extends AdapterBase {
  calls: Array<{ method: string; args: unknown[] }> = [];
  private record(method: string, ...args: unknown[]): Promise<any> {
    this.calls.push({ method, args });
    return Promise.resolve({ method });
  }
  _find(params?: Params) {
    return this.record('_find', params);
  }
  _get(id: any, params?: Params) {
    return this.record('_get', id, params);
  }
  _create(data: any, params?: Params) {
    return this.record('_create', data, params);
  }
  _update(id: any, data: any, params?: Params) {
    return this.record('_update', id, data, params);
  }
  _patch(id: any, data: any, params?: Params) {
    return this.record('_patch', id, data, params);
  }
  _remove(id: any, params?: Params) {
    return this.record('_remove', id, params);
  }
}

async function badRequest(call: Promise<unknown>, message?: string | RegExp): Promise<void> {
  const error: any = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error?.name).toBe('BadRequest');
  if (message) expect(error.message).toMatch(message);
}

describe('AdapterBase', () => {
  it('has the Feathers defaults and exposes id and events', () => {
    const adapter = new RecordingAdapter({ events: ['testing'] });
    expect(adapter.options).toMatchObject({
      id: 'id',
      paginate: false,
      multi: false,
      filters: {},
      operators: [],
      events: ['testing'],
    });
    expect(adapter.id).toBe('id');
    expect(adapter.events).toEqual(['testing']);
    expect(new RecordingAdapter({}, '_id').id).toBe('_id');
  });

  it('find passes a sanitized copy of the query with the resolved $limit', async () => {
    const adapter = new RecordingAdapter({ paginate: { default: 2, max: 3 } });
    const query = { $limit: '10', name: 'a' };
    await adapter.find({ query, provider: 'rest' });
    expect(adapter.calls[0].args[0]).toEqual({ query: { $limit: 3, name: 'a' }, provider: 'rest' });
    expect(query).toEqual({ $limit: '10', name: 'a' });
  });

  it('patch and remove drop $limit; get, update and create keep the sanitized query', async () => {
    const adapter = new RecordingAdapter({ multi: true });
    const params = { query: { $limit: 1, $select: ['a'] } };
    await adapter.patch(null, {}, params);
    await adapter.remove(null, params);
    await adapter.get(1, params);
    await adapter.update(1, {}, params);
    await adapter.create({}, params);
    const queries = adapter.calls.map((call) => (call.args[call.args.length - 1] as Params).query);
    expect(queries).toEqual([
      { $select: ['a'] },
      { $select: ['a'] },
      { $limit: 1, $select: ['a'] },
      { $limit: 1, $select: ['a'] },
      { $limit: 1, $select: ['a'] },
    ]);
  });

  it('validates the query of every method before calling the store', async () => {
    const adapter = new RecordingAdapter({ multi: true });
    const params = { query: { $foo: 1 } };
    await badRequest(adapter.find(params));
    await badRequest(adapter.get(1, params));
    await badRequest(adapter.create({}, params));
    await badRequest(adapter.update(1, {}, params));
    await badRequest(adapter.patch(1, {}, params));
    await badRequest(adapter.remove(1, params));
    expect(adapter.calls).toEqual([]);
  });

  it('refuses ids that are not strings or finite numbers', async () => {
    const adapter = new RecordingAdapter({ multi: true });
    for (const id of [{ $ne: 1 }, ['a'], undefined, Number.POSITIVE_INFINITY, true]) {
      await badRequest(adapter.get(id as never), 'The id must be a string or a number');
      await badRequest(adapter.patch(id as never, {}), 'The id must be a string or a number');
      await badRequest(adapter.remove(id as never), 'The id must be a string or a number');
    }
    expect(adapter.calls).toEqual([]);
  });

  it('update refuses a null id or array data', async () => {
    const adapter = new RecordingAdapter({ multi: true });
    await badRequest(adapter.update(null, {}), "You can not replace multiple instances. Did you mean 'patch'?");
    await badRequest(adapter.update(1, [] as never), "You can not replace multiple instances. Did you mean 'patch'?");
  });

  it('refuses data that is not an object (or an array of objects for create)', async () => {
    const adapter = new RecordingAdapter({ multi: true });
    await badRequest(adapter.create('x' as never));
    await badRequest(adapter.create([{}, 1] as never));
    await badRequest(adapter.update(1, null as never));
    await badRequest(adapter.patch(1, 'x' as never));
    expect(adapter.calls).toEqual([]);
  });

  it('checks multi per method, with params.adapter on top', async () => {
    const adapter = new RecordingAdapter({ multi: ['remove'] });
    await expect(adapter.create([{}])).rejects.toMatchObject({
      name: 'MethodNotAllowed',
      code: 405,
      message: 'Can not create multiple entries',
    });
    await expect(adapter.patch(null, {})).rejects.toMatchObject({ message: 'Can not patch multiple entries' });
    await expect(adapter.remove(null)).resolves.toEqual({ method: '_remove' });
    await expect(adapter.patch(null, {}, { adapter: { multi: true } })).resolves.toEqual({ method: '_patch' });
    expect(adapter.allowsMulti('create', { adapter: { multi: ['create'] } })).toBe(true);
  });

  it('returns promises also when the store method throws or answers synchronously', async () => {
    class SynchronousAdapter extends RecordingAdapter {
      override _get(): never {
        throw new Error('store failed');
      }
      override _find(): any {
        return [{ id: 1 }];
      }
    }
    const adapter = new SynchronousAdapter({});
    const failing = adapter.get(1);
    expect(failing).toBeInstanceOf(Promise);
    await expect(failing).rejects.toThrow('store failed');
    const found = adapter.find();
    expect(found).toBeInstanceOf(Promise);
    await expect(found).resolves.toEqual([{ id: 1 }]);
  });
});
