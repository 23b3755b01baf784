import { RouteTable } from '../../../../src/application/transport/route-table';
import { BadRequest } from '../../../../src/domain/errors';
import type { RegisteredService } from '../../../../src/application/app/registered-service';

const service = (path: string, methods = ['find', 'get']) => ({ path, methods }) as unknown as RegisteredService;

describe('RouteTable', () => {
  const table = new RouteTable([
    service('messages'),
    service('messages/archive'),
    service('users/:userId/messages'),
    service('users/:userId/posts/:postId/comments'),
    service('users'),
    service('api/v1/things', ['create']),
  ]);
  const match = (path: string) => {
    const found = table.match(`/${path}`);
    return found && { path: found.entry.service.path, id: found.id, route: found.route };
  };

  it('matches a collection and an item', () => {
    expect(match('messages')).toEqual({ path: 'messages', id: undefined, route: {} });
    expect(match('messages/7')).toEqual({ path: 'messages', id: '7', route: {} });
  });

  it('prefers a literal service over an id', () => {
    expect(match('messages/archive')).toEqual({ path: 'messages/archive', id: undefined, route: {} });
    expect(match('messages/archive/3')).toEqual({ path: 'messages/archive', id: '3', route: {} });
  });

  it('fills placeholders and backtracks to the id of a shorter service', () => {
    expect(match('users/12/messages')).toEqual({
      path: 'users/:userId/messages',
      id: undefined,
      route: { userId: '12' },
    });
    expect(match('users/12/messages/9')).toEqual({ path: 'users/:userId/messages', id: '9', route: { userId: '12' } });
    expect(match('users/12/posts/4/comments/1')).toEqual({
      path: 'users/:userId/posts/:postId/comments',
      id: '1',
      route: { userId: '12', postId: '4' },
    });
    expect(match('users/12')).toEqual({ path: 'users', id: '12', route: {} });
  });

  it('does not match unknown, extra or empty segments', () => {
    expect(match('nothing')).toBeUndefined();
    expect(match('messages/1/2')).toBeUndefined();
    expect(match('users//messages')).toBeUndefined();
    expect(match('Messages')).toBeUndefined();
    expect(match('users/12/posts')).toBeUndefined();
  });

  it('drops leading and trailing slashes and decodes each segment after splitting', () => {
    expect(table.match('//messages/7//')).toMatchObject({ id: '7' });
    expect(table.match('/messages/')).toMatchObject({ id: undefined });
    expect(table.match('/messages/x%2Fy%20z')).toMatchObject({ id: 'x/y z' });
    expect(table.match('/users/a%2Fb/messages')).toMatchObject({ route: { userId: 'a/b' } });
    expect(table.match('/messages%2F7')).toBeUndefined();
  });

  it('refuses invalid percent-encoding with a 400', () => {
    expect(() => table.match('/messages/%E0%A4%A')).toThrow(BadRequest);
  });

  it('serves a service registered at the root', () => {
    const root = new RouteTable([service('/'), service('other')]);
    expect(root.match('/')?.entry.service.path).toBe('/');
    expect(root.match('')?.entry.service.path).toBe('/');
    expect(root.match('/5')).toMatchObject({ id: '5' });
    expect(root.match('/other')?.entry.service.path).toBe('other');
    expect(new RouteTable([service('other')]).match('/')).toBeUndefined();
  });

  it('stays bounded on very long paths', () => {
    expect(table.match('/users'.repeat(10_000))).toBeUndefined();
  });
});
