import { argumentNames, takesData, takesId } from '../../../../src/application/app/service-call';
import { bearerAuthentication, bearerToken } from '../../../../src/application/transport/bearer-token';
import { createApp } from '../../../../src/application/app/application';
import type { HookContext } from '../../../../src/application/hooks/hook-context';
import { errorAnswer } from '../../../../src/application/transport/error-answer';
import { callThroughTransport } from '../../../../src/application/transport/transport-call';
import { BadRequest, GeneralError, NotFound, ServiceError, Unavailable } from '../../../../src/domain/errors';

describe('the argument table', () => {
  it('names the arguments of each method; custom methods take data like create', () => {
    expect(argumentNames('find')).toEqual(['params']);
    expect(['get', 'remove'].map(argumentNames)).toEqual([
      ['id', 'params'],
      ['id', 'params'],
    ]);
    expect(['update', 'patch'].map(argumentNames)).toEqual([
      ['id', 'data', 'params'],
      ['id', 'data', 'params'],
    ]);
    expect(['create', 'markRead'].map(argumentNames)).toEqual([
      ['data', 'params'],
      ['data', 'params'],
    ]);
  });

  it('says which methods take data and which an id', () => {
    expect(['find', 'get', 'remove', 'create', 'update', 'patch', 'markRead'].map(takesData)).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    expect(['find', 'get', 'remove', 'create', 'update', 'patch', 'markRead'].map(takesId)).toEqual([
      false,
      true,
      true,
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('bearer tokens', () => {
  it('reads Bearer tokens only', () => {
    expect(bearerAuthentication('Bearer a.b.c')).toEqual({ strategy: 'jwt', accessToken: 'a.b.c' });
    expect(bearerToken('bearer   tok ')).toBe('tok');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken(['Bearer a', 'Bearer b'])).toBeUndefined();
    expect(bearerAuthentication(undefined)).toBeUndefined();
  });
});

describe('errorAnswer', () => {
  it('keeps service errors and hides unknown ones in production', () => {
    expect(errorAnswer(new NotFound('gone'), true)).toEqual({
      status: 404,
      unexpected: false,
      body: new NotFound('gone').toJSON(),
    });
    expect(errorAnswer(new Error('secret'), false).body).toEqual(new GeneralError('secret').toJSON());
    expect(errorAnswer(new Error('secret'), true)).toMatchObject({
      status: 500,
      unexpected: true,
      body: { message: 'Internal server error' },
    });
    expect(errorAnswer('a string', false).body.message).toBe('Internal server error');
  });

  it('logs every 5xx as unexpected and no 4xx, whatever the transport', () => {
    expect(errorAnswer(new BadRequest('no'), false).unexpected).toBe(false);
    expect(errorAnswer(new Unavailable('down'), false)).toMatchObject({ status: 503, unexpected: true });
    const odd = new ServiceError('Odd', 42, 'odd', 'odd');
    expect(errorAnswer(odd, false)).toMatchObject({ status: 500, unexpected: true });
  });
});

describe('callThroughTransport', () => {
  it('hands a method only the arguments it takes, whatever the transport decoded', async () => {
    const app = createApp();
    const seen: Record<string, unknown>[] = [];
    const record = async (context: HookContext) =>
      void seen.push({ method: context.method, hasId: context.id !== undefined, hasData: context.data !== undefined });
    app.use('things', {
      async find() {
        return [];
      },
      async get(id: unknown) {
        return { id };
      },
      async create(data: unknown) {
        return data;
      },
    });
    app.service('things').hooks({ before: { all: [record] } });
    const match = { entry: { service: app.lookup('things')!, placeholders: [] }, route: {} };
    const origin = { provider: 'rest', headers: {}, ip: undefined, authentication: undefined };
    await callThroughTransport(app, match, 'find', { id: null, data: { x: 1 }, query: {} }, origin);
    await callThroughTransport(app, match, 'get', { id: '7', query: {} }, origin);
    await callThroughTransport(app, match, 'create', { id: null, data: { x: 1 }, query: {} }, origin);
    expect(seen).toEqual([
      { method: 'find', hasId: false, hasData: false },
      { method: 'get', hasId: true, hasData: false },
      { method: 'create', hasId: false, hasData: true },
    ]);
  });
});
