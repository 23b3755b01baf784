/**
 * The live chat page's script (bundled for the browser by the chat page router): sign up, log
 * in, post, and see everyone's messages as they arrive, over our own socket client, each under
 * its author's name (the messages' `user` relation); older messages load on scroll.
 */
import { io } from 'socket.io-client';
import { authenticationClient, createApp, socketio } from '../../../client';
import { copyWith } from '../../../domain/plain-record';

interface Message {
  _id?: string;
  id?: string | number;
  text: string;
  userId?: string;
  createdAt?: number;
  likes?: number;
  /** Whether I liked it (the server computes it for each reader). */
  liked?: boolean;
  /** Its author, as the users policy shows them to me: their id and name (the messages' `user` relation). */
  user?: { _id?: string; name?: string } | null;
}

interface User {
  _id?: string;
  id?: string;
  email?: string;
  name?: string;
  roles?: string[];
}

/** Messages per page, the first and each older one loaded on scroll. */
const PAGE_SIZE = 20;
/** Newest first, ties by id: the order pages are read in, so a cursor can continue it. */
const NEWEST_FIRST = { createdAt: -1, _id: -1 };

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const socket = io({ transports: ['websocket'] });
const connection = socketio(socket);
const app = createApp().configure(connection);
app.use('messages', connection.service('messages'), { methods: ['find', 'create', 'patch', 'remove'] });
const auth = authenticationClient({ storage: window.localStorage });
app.configure(auth.configure);

/** Who is signed in: whose messages get a delete button (every message for an admin). */
let me: User | undefined;

/** Who wrote a message: the name its `user` relation carries (anyone signed in may read it). */
function authorOf(message: Message): string {
  return message.user?.name || 'someone';
}

const keyOf = (message: Message): string => String(message._id ?? message.id);
const items = new Map<string, HTMLLIElement>();

/**
 * A message as a list item: initials, author, time, text, a like button with the count, and
 * delete where allowed. New messages go at the end (the view follows them when it was at the
 * end, or when they are mine); older ones, loaded on scroll, at the start.
 */
function show(message: Message, where: 'end' | 'start' = 'end'): void {
  const key = keyOf(message);
  if (items.has(key)) return update(message);
  const list = byId('messages');
  const following = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const item = document.createElement('li');
  item.dataset.id = key;
  const name = authorOf(message);
  const avatar = element('span', 'avatar', initials(name));
  const author = element('strong', 'author', name);
  const time = element('time', 'time', message.createdAt ? new Date(message.createdAt).toLocaleTimeString() : '');
  const text = element('span', 'text', message.text);
  const like = element('button', 'like', '') as HTMLButtonElement;
  like.type = 'button';
  like.addEventListener('click', () => {
    const liked = item.dataset.liked === 'true';
    app
      .service('messages')
      .patch(key, { $inc: { likes: liked ? -1 : 1 } })
      .then(update, (error: Error) => setStatus(error.message, true));
  });
  item.append(avatar, author, time, text, like);
  const myId = me ? String(me._id ?? me.id) : undefined;
  const mine = message.userId === myId;
  if (mine || me?.roles?.includes('admin')) {
    const remove = element('button', 'delete', 'Delete') as HTMLButtonElement;
    remove.type = 'button';
    remove.addEventListener('click', () => {
      app
        .service('messages')
        .remove(key)
        .then(
          () => forget(key),
          (error: Error) => setStatus(error.message, true),
        );
    });
    item.append(remove);
  }
  items.set(key, item);
  if (where === 'start') {
    list.prepend(item);
  } else {
    list.append(item);
    if (following || mine) list.scrollTop = list.scrollHeight;
  }
  update(message);
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
  return (
    name
      .split(/[\s@.]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join('') || '?'
  );
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

/** Where the next older page starts: the oldest message shown so far; `done` once none is older. */
const older: { createdAt?: number; id?: string; done: boolean; loading: boolean } = { done: false, loading: false };

/**
 * The next page of older messages, put above those shown: those created before the oldest shown
 * (or at the same time with a smaller id), so messages arriving meanwhile never shift the pages.
 * Pages keep coming while the list does not fill its box, so there is always something to scroll.
 */
async function loadOlder(): Promise<void> {
  if (older.done || older.loading) return;
  older.loading = true;
  const list = byId('messages');
  try {
    for (let pages = 0; pages < 100 && !older.done; pages += 1) {
      const cursor =
        older.createdAt === undefined
          ? {}
          : { $or: [{ createdAt: { $lt: older.createdAt } }, { createdAt: older.createdAt, _id: { $lt: older.id } }] };
      const page = await app
        .service('messages')
        .find({ query: copyWith(cursor, { $sort: NEWEST_FIRST, $limit: PAGE_SIZE }) });
      const heightBefore = list.scrollHeight;
      for (const message of page.data as Message[]) show(message, 'start');
      // Keep what was on screen where it was: the new items went above it.
      list.scrollTop += list.scrollHeight - heightBefore;
      const oldest = page.data[page.data.length - 1] as Message | undefined;
      if (oldest) Object.assign(older, { createdAt: oldest.createdAt, id: keyOf(oldest) });
      older.done = page.data.length < PAGE_SIZE;
      if (list.scrollHeight > list.clientHeight) break;
    }
  } catch (error) {
    setStatus((error as Error).message, true);
  } finally {
    older.loading = false;
  }
}

async function enterChat(user: User | undefined): Promise<void> {
  me = user;
  byId('signed-out').hidden = true;
  byId('chat').hidden = false;
  setStatus(`Signed in as ${user?.name ?? user?.email ?? 'you'}`);
  await loadOlder();
  const list = byId('messages');
  list.scrollTop = list.scrollHeight;
  list.addEventListener('scroll', () => {
    if (list.scrollTop < 40) void loadOlder();
  });
}

app.service('messages').on('created', (message: Message) => show(message));
app.service('messages').on('patched', (message: Message) => update(message));
app.service('messages').on('removed', (message: Message) => forget(keyOf(message)));

function credentials(): { email: string; password: string; name: string } {
  return {
    email: byId<HTMLInputElement>('email').value.trim(),
    password: byId<HTMLInputElement>('password').value,
    name: byId<HTMLInputElement>('name').value.trim(),
  };
}

byId('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
  const { email, password, name } = credentials();
  try {
    if (submitter?.value === 'signup')
      await app.service('users').create(name ? { email, password, name } : { email, password });
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

/**
 * Back after the network went away: a resumed connection has already been given what it missed;
 * one that could not resume (away too long) reloads the list, so the page never shows holes.
 */
let connectedBefore = false;
socket.on('connect', () => {
  if (connectedBefore && me) void backOnline(socket.recovered);
  connectedBefore = true;
});

async function backOnline(resumed: boolean): Promise<void> {
  // Signed in again first: the login the client queued when the connection dropped gives up after
  // the call timeout (30 s), and a list asked for while a new connection is not yet signed in is refused.
  await auth.reAuthenticate().catch((error: Error) => setStatus(error.message, true));
  if (!resumed) await reloadMessages();
}

async function reloadMessages(): Promise<void> {
  for (const key of [...items.keys()]) forget(key);
  Object.assign(older, { createdAt: undefined, id: undefined, done: false });
  await loadOlder();
  const list = byId('messages');
  list.scrollTop = list.scrollHeight;
}

auth.reAuthenticate().then(
  (result) => enterChat(result.user),
  () => setStatus('Sign up or log in to chat.'),
);
