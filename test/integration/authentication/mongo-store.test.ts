import request from 'supertest';
import { decodePart, givenAuthApp, logIn, signUp } from './auth-test-app';

describe('authentication on the database store (embedded server, ObjectId ids)', () => {
  it('logs in, uses the token, and restricts users to themselves by _id', async () => {
    const composed = await givenAuthApp({ rateLimit: false }, { STORE: 'mongo' });
    try {
      const agent = request(composed.http);
      const ann = await signUp(agent, 'ann@example.com');
      const bob = await signUp(agent, 'bob@example.com');
      expect(ann).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), email: 'ann@example.com' });
      const token = await logIn(agent, 'ann@example.com');
      expect(decodePart(token, 1).sub).toBe(ann._id);
      const bearer = { Authorization: `Bearer ${token}` };
      const message = await agent.post('/messages').set(bearer).send({ text: 'hi' });
      expect(message.status).toBe(201);
      expect(message.body.userId).toBe(ann._id);
      expect((await agent.patch(`/users/${ann._id}`).set(bearer).send({ name: 'Ann' })).status).toBe(200);
      expect((await agent.patch(`/users/${bob._id}`).set(bearer).send({ name: 'Bob' })).status).toBe(403);
      expect((await agent.delete(`/users/${ann._id}`).set(bearer)).status).toBe(200);
      expect((await agent.get('/messages').set(bearer)).status).toBe(401);
    } finally {
      await composed.close();
    }
  });
});
