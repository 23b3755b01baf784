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
  likes?: number;
  /** Whether I liked it (the server computes it for each reader). */
  liked?: boolean;
}

interface User {
  _id?: string;
  id?: string;
  email?: string;
  name?: string;
  roles?: string[];
}

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const socket = io({ transports: ['websocket'] });
const connection = socketio(socket);
const app = createApp().configure(connection);
app.use('messages', connection.service('messages'), { methods: ['find', 'create', 'patch', 'remove'] });
const auth = authenticationClient({ storage: window.localStorage });
app.configure(auth.configure);

/** Who is signed in: whose messages get a delete button (every message for an admin). */
let me: User | undefined;

const names = new Map<string, Promise<string>>();
/** Who wrote a message: their name (anyone signed in may read it; an e-mail only its own user). */
function authorOf(userId: string | undefined): Promise<string> {
  if (!userId) return Promise.resolve('someone');
  const known = names.get(userId);
  if (known) return known;
  const name: Promise<string> = app.service('users').get(userId).then((user: User) => user.name || user.email || 'someone', () => 'someone');
  names.set(userId, name);
  return name;
}

const keyOf = (message: Message): string => String(message._id ?? message.id);
const items = new Map<string, HTMLLIElement>();

/** A message as a list item: initials, author, time, text, a like button with the count, and delete where allowed. */
function show(message: Message): void {
  const key = keyOf(message);
  if (items.has(key)) return update(message);
  const item = document.createElement('li');
  item.dataset.id = key;
  const avatar = element('span', 'avatar', '?');
  const author = element('strong', 'author', '');
  const time = element('time', 'time', message.createdAt ? new Date(message.createdAt).toLocaleTimeString() : '');
  const text = element('span', 'text', message.text);
  const like = element('button', 'like', '') as HTMLButtonElement;
  like.type = 'button';
  like.addEventListener('click', () => {
    const liked = item.dataset.liked === 'true';
    app.service('messages').patch(key, { $inc: { likes: liked ? -1 : 1 } }).then(update, (error: Error) => setStatus(error.message, true));
  });
  item.append(avatar, author, time, text, like);
  const myId = me ? String(me._id ?? me.id) : undefined;
  if (message.userId === myId || me?.roles?.includes('admin')) {
    const remove = element('button', 'delete', 'Delete') as HTMLButtonElement;
    remove.type = 'button';
    remove.addEventListener('click', () => {
      app.service('messages').remove(key).then(() => forget(key), (error: Error) => setStatus(error.message, true));
    });
    item.append(remove);
  }
  items.set(key, item);
  byId('messages').append(item);
  update(message);
  void authorOf(message.userId).then((name) => {
    author.textContent = name;
    avatar.textContent = initials(name);
  });
  item.scrollIntoView({ block: 'end' });
}

/** A like (mine or anyone's) changes the count; `liked` is mine, computed by the server for me. */
function update(message: Message): void {
  const item = items.get(keyOf(message));
  if (!item) return;
  if (message.liked !== undefined) item.dataset.liked = String(message.liked);
  const like = item.querySelector('.like');
  if (like) like.textContent = `${item.dataset.liked === 'true' ? '\u2665' : '\u2661'} ${message.likes ?? 0}`;
}

function forget(key: string): void {
  items.get(key)?.remove();
  items.delete(key);
}

function initials(name: string): string {
  return name.split(/[\s@.]+/).filter(Boolean).slice(0, 2).map((part) => part[0]!.toUpperCase()).join('') || '?';
}

function element(tag: string, className: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}

function setStatus(text: string, error = false): void {
  const status = byId('status');
  status.textContent = text;
  status.className = error ? 'error' : '';
}

async function enterChat(user: User | undefined): Promise<void> {
  me = user;
  byId('signed-out').hidden = true;
  byId('chat').hidden = false;
  setStatus(`Signed in as ${user?.name ?? user?.email ?? 'you'}`);
  const page = await app.service('messages').find({ query: { $limit: 50, $sort: { createdAt: -1 } } });
  for (const message of [...page.data].reverse()) show(message);
}

app.service('messages').on('created', (message: Message) => show(message));
app.service('messages').on('patched', (message: Message) => update(message));
app.service('messages').on('removed', (message: Message) => forget(keyOf(message)));

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
