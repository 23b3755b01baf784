import { PASSWORD, uniqueEmail } from './accounts';
import { call } from './http';
import { RecordingSocket } from './socket-clients';

export interface SignedInSocket {
  socket: RecordingSocket;
  user: Record<string, any>;
  email: string;
  token: string;
}

/** Signs up over REST, then logs in over a fresh socket. */
export async function signedInSocket(url: string): Promise<SignedInSocket> {
  const email = uniqueEmail('raw');
  const created = await call(url, 'POST', '/users', { body: { email, password: PASSWORD } });
  if (created.status !== 201) throw new Error(`sign-up failed: ${created.status}`);
  const socket = new RecordingSocket(url);
  await socket.connected();
  const [error, result] = (await socket.call(
    'create',
    'authentication',
    { strategy: 'local', email, password: PASSWORD },
    {},
  )) as [unknown, any];
  if (error) throw new Error(`socket login failed: ${JSON.stringify(error)}`);
  return { socket, user: created.body, email, token: result.accessToken };
}

export const idOf = (record: Record<string, any>): string => String(record._id ?? record.id);
