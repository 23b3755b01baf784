/**
 * The live chat page's script (bundled for the browser by the chat page router): sign up, log
 * in, post, and see everyone's messages as they arrive, over our own socket client.
 */
import { io } from 'socket.io-client';
import { authenticationClient, createApp, socketio } from '../../../client';

interface Message {
  _id?: string;
  id?: string | number;
  text: string;
  userId?: string;
  createdAt?: number;
}

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const socket = io({ transports: ['websocket'] });
const connection = socketio(socket);
const app = createApp().configure(connection);
app.use('messages', connection.service('messages'), { methods: ['find', 'create'] });
const auth = authenticationClient({ storage: window.localStorage });
app.configure(auth.configure);

const names = new Map<string, Promise<string>>();
/** Who wrote a message: their name (anyone signed in may read it; an e-mail only its own user). */
function authorOf(userId: string | undefined): Promise<string> {
  if (!userId) return Promise.resolve('someone');
  const known = names.get(userId);
  if (known) return known;
  const name: Promise<string> = app.service('users').get(userId).then((user: { name?: string; email?: string }) => user.name || user.email || 'someone', () => 'someone');
  names.set(userId, name);
  return name;
}

const shown = new Set<string>();
function show(message: Message): void {
  const key = String(message._id ?? message.id);
  if (shown.has(key)) return;
  shown.add(key);
  const item = document.createElement('li');
  item.dataset.id = key;
  const author = document.createElement('strong');
  const text = document.createElement('span');
  text.className = 'text';
  text.textContent = message.text;
  item.append(author, document.createTextNode(': '), text);
  byId('messages').append(item);
  void authorOf(message.userId).then((name) => (author.textContent = name));
  item.scrollIntoView({ block: 'end' });
}

function setStatus(text: string, error = false): void {
  const status = byId('status');
  status.textContent = text;
  status.className = error ? 'error' : '';
}

async function enterChat(user: { email?: string } | undefined): Promise<void> {
  byId('signed-out').hidden = true;
  byId('chat').hidden = false;
  setStatus(`Signed in as ${user?.email ?? 'you'}`);
  const page = await app.service('messages').find({ query: { $limit: 50, $sort: { createdAt: -1 } } });
  for (const message of [...page.data].reverse()) show(message);
}

app.service('messages').on('created', (message: Message) => show(message));

function credentials(): { email: string; password: string; name: string } {
  return { email: byId<HTMLInputElement>('email').value.trim(), password: byId<HTMLInputElement>('password').value, name: byId<HTMLInputElement>('name').value.trim() };
}

byId('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
  const { email, password, name } = credentials();
  try {
    if (submitter?.value === 'signup') await app.service('users').create(name ? { email, password, name } : { email, password });
    const result = await auth.authenticate({ strategy: 'local', email, password });
    byId<HTMLInputElement>('password').value = '';
    await enterChat(result.user);
  } catch (error) {
    setStatus((error as Error).message, true);
  }
});

byId('post-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>('text');
  const text = input.value.trim();
  if (!text) return;
  try {
    show(await app.service('messages').create({ text }));
    input.value = '';
  } catch (error) {
    setStatus((error as Error).message, true);
  }
});

byId('logout').addEventListener('click', async () => {
  await auth.logout();
  location.reload();
});

auth.reAuthenticate().then((result) => enterChat(result.user), () => setStatus('Sign up or log in to chat.'));
