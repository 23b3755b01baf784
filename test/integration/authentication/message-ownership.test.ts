import request from 'supertest';
import type { ComposedApplication } from '../../../src/composition-root';
import { givenAuthApp, logIn, signUp } from './auth-test-app';

describe.each(['memory', 'mongo'])(
  'messages on the %s store: only the owner changes or removes a message; anyone may like it',
  (store) => {
    let composed: ComposedApplication;
    let ownerToken: string;
    let otherToken: string;
    let id: string;

    beforeAll(async () => {
      composed = await givenAuthApp({}, { STORE: store });
      const agent = request(composed.http);
      await signUp(agent, 'owner@example.com');
      await signUp(agent, 'other@example.com');
      ownerToken = await logIn(agent, 'owner@example.com');
      otherToken = await logIn(agent, 'other@example.com');
    });

    afterAll(() => composed.close());

    beforeEach(async () => {
      const created = await request(composed.http)
        .post('/messages')
        .set('authorization', `Bearer ${ownerToken}`)
        .send({ text: 'mine' });
      expect(created.status).toBe(201);
      id = String(created.body._id);
    });

    const as = (token: string) => ({ authorization: `Bearer ${token}` });

    // The other user may read the message, so a refused change says so (403); the custom method,
    // which has no id of its own to look up, finds nothing to mark (404).
    it.each([
      ['patch', 403, (agent: ReturnType<typeof request>) => agent.patch(`/messages/${id}`).send({ text: 'hijacked' })],
      ['update', 403, (agent: ReturnType<typeof request>) => agent.put(`/messages/${id}`).send({ text: 'hijacked' })],
      ['remove', 403, (agent: ReturnType<typeof request>) => agent.delete(`/messages/${id}`)],
      [
        'markRead',
        404,
        (agent: ReturnType<typeof request>) => agent.post('/messages').set('x-service-method', 'markRead').send({ id }),
      ],
    ])("someone else's %s is refused (%d) and changes nothing", async (_method, status, send) => {
      const response = await send(request(composed.http)).set(as(otherToken));
      expect(response.status).toBe(status);
      const after = await request(composed.http).get(`/messages/${id}`).set(as(ownerToken));
      expect(after.body).toMatchObject({ text: 'mine', read: false });
    });

    it('the owner may patch, mark read and remove', async () => {
      expect(
        (await request(composed.http).patch(`/messages/${id}`).set(as(ownerToken)).send({ text: 'edited' })).body.text,
      ).toBe('edited');
      expect(
        (
          await request(composed.http)
            .post('/messages')
            .set(as(ownerToken))
            .set('x-service-method', 'markRead')
            .send({ id })
        ).body.read,
      ).toBe(true);
      expect((await request(composed.http).delete(`/messages/${id}`).set(as(ownerToken))).status).toBe(200);
    });

    it('anyone signed in may like a message, but a like cannot carry other changes', async () => {
      const liked = await request(composed.http)
        .patch(`/messages/${id}`)
        .set(as(otherToken))
        .send({ $inc: { likes: 1 } });
      expect(liked.status).toBe(200);
      expect(liked.body.likes).toBe(1);
      const sneaky = await request(composed.http)
        .patch(`/messages/${id}`)
        .set(as(otherToken))
        .send({ $inc: { likes: 1 }, text: 'hijacked' });
      expect(sneaky.status).toBe(400);
      expect((await request(composed.http).get(`/messages/${id}`).set(as(otherToken))).body).toMatchObject({
        text: 'mine',
        likes: 1,
      });
    });

    it('everyone signed in still reads every message', async () => {
      expect((await request(composed.http).get(`/messages/${id}`).set(as(otherToken))).status).toBe(200);
    });
  },
);
