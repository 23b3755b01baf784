import type { Browser } from 'playwright-core';
import { describeIf } from '../../helpers/skip-with-reason';
import { startApp, type RunningApp } from '../../helpers/app-server';
import {
  chromiumAvailable,
  chromiumMissingReason,
  launchChromium,
  openChatPage,
  type ChatPerson,
} from './support/chat-page-browser';

/** The resume window of the server in the test of an absence longer than it. */
const SHORT_WINDOW_MS = 800;
/**
 * How long that absence lasts for the page: longer than the default window (2 min) and than a
 * socket call's timeout (30 s).
 */
const LONG_ABSENCE_MS = 150_000;

/** Resolves once the page lists a message whose text is exactly `text`. */
const listed = (person: ChatPerson, text: string, timeout = 2_000): Promise<void> =>
  person.page.locator(`#messages li .text:text-is(${JSON.stringify(text)})`).waitFor({ timeout });

/** What the page lists, top to bottom. */
const shown = (person: ChatPerson): Promise<string[]> => person.page.locator('#messages li .text').allTextContents();

/**
 * Posts `text` from the page's form and waits until the page lists it (the page shows its own
 * message from the answer).
 */
async function post(person: ChatPerson, text: string): Promise<void> {
  await person.page.fill('#text', text);
  await person.page.click('#post-form button');
  await listed(person, text);
}

/**
 * The socket.io session ids the page was given, one per connection (CONNECT packets): a resumed
 * connection gets its old one again.
 */
const sessionIds = (person: ChatPerson): string[] =>
  person.frames.filter((frame) => frame.startsWith('40{')).map((frame) => JSON.parse(frame.slice(2)).sid as string);

/** How many `messages created` events carrying exactly `text` the page received. */
const createdEvents = (person: ChatPerson, text: string): number =>
  person.frames.filter(
    (frame) => frame.startsWith('42["messages created"') && JSON.parse(frame.slice(2))[1].text === text,
  ).length;

/** Frames of the WebSockets the page opens from now on, both ways, in order: `> ` sent, `< ` received. */
function recordWire(person: ChatPerson): string[] {
  const wire: string[] = [];
  person.page.on('websocket', (socket) => {
    socket.on('framesent', (frame) => wire.push(`> ${String(frame.payload)}`));
    socket.on('framereceived', (frame) => wire.push(`< ${String(frame.payload)}`));
  });
  return wire;
}

/**
 * Cuts `person`'s network with Chromium's offline emulation (`context.setOffline`, CDP
 * `Network.emulateNetworkConditions`) and resolves once the page's WebSocket is closed. Offline
 * emulation once left open WebSockets alone (only new requests failed); the Chromium these tests
 * run (156) closes them at once, as a lost network does, and refuses reconnects with
 * ERR_INTERNET_DISCONNECTED, so nothing else is needed to cut the socket. Waiting for the close
 * (and checking that nothing arrives meanwhile) makes a Chromium that does not cut it fail here
 * instead of passing without ever reconnecting.
 */
async function goOffline(person: ChatPerson): Promise<void> {
  const socket = person.sockets.at(-1)!;
  const closed = socket.isClosed() ? Promise.resolve() : socket.waitForEvent('close', { timeout: 2_000 });
  await person.context.setOffline(true);
  await closed;
}

/**
 * The chat page when the browser's network is cut and restored, on the default store (the
 * embedded MongoDB-compatible server): what another person posted meanwhile appears once and in
 * order, from the resumed connection inside the resume window, from a reload of the list beyond it;
 * either way the page stays signed in and is never reloaded.
 */
describeIf(chromiumAvailable, chromiumMissingReason)('live chat page after the network is cut and restored', () => {
  let browser: Browser;
  let server: RunningApp | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(() => browser?.close());

  /** Ada and Bob on the page, each in their own browser context, and a few messages both have seen. */
  async function chat(
    env: Record<string, string>,
    ada: { controlledClock?: boolean } = {},
  ): Promise<{ ada: ChatPerson; bob: ChatPerson; before: string[] }> {
    server = await startApp({ STORE: 'mongo', ...env });
    const people = {
      ada: await openChatPage(browser, server.url, { name: 'Ada', ...ada }),
      bob: await openChatPage(browser, server.url, { name: 'Bob' }),
    };
    const before = ['hi Bob', 'hi Ada', 'how are you'];
    await post(people.ada, before[0]!);
    await post(people.bob, before[1]!);
    await post(people.ada, before[2]!);
    await listed(people.bob, before[2]!);
    // A page load sets nothing on window: if this is gone later, the page was reloaded.
    await people.ada.page.evaluate(() => Object.assign(window, { notReloaded: true }));
    return { ...people, before };
  }

  /** Bob posts `count` messages while Ada is offline; none of them reaches her page. */
  async function postWhileAway(ada: ChatPerson, bob: ChatPerson, count: number): Promise<string[]> {
    const during: string[] = [];
    for (let index = 0; index < count; index += 1) {
      during.push(`while Ada was away ${index}`);
      await post(bob, during[index]!);
    }
    // Ada's connection is really cut: an open socket would have had the first one long ago.
    await ada.page.waitForTimeout(100);
    expect(await shown(ada)).not.toContain(during[0]);
    return during;
  }

  /**
   * Ada is still signed in: her next message reaches Bob; each page lists everything once, in
   * order; hers was never reloaded.
   */
  async function expectBothPagesList(ada: ChatPerson, bob: ChatPerson, messages: string[]): Promise<void> {
    await post(ada, 'back again');
    await listed(bob, 'back again');
    expect(await shown(ada)).toEqual([...messages, 'back again']);
    expect(await shown(bob)).toEqual([...messages, 'back again']);
    expect(await ada.page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(ada.errors).toEqual([]);
    expect(await ada.page.locator('#status.error').count()).toBe(0);
  }

  it('shows what was posted while it was offline once, in order, from the resumed connection', async () => {
    const { ada, bob, before } = await chat({});
    const sessionBefore = sessionIds(ada).at(-1);
    await goOffline(ada);
    const during = await postWhileAway(ada, bob, 8);
    const back = Date.now();
    await ada.context.setOffline(false);
    // socket.io's reconnect delay (1 s, doubling after each attempt refused while offline, at most 5 s) bounds this.
    await listed(ada, during.at(-1)!, 10_000);
    expect(Date.now() - back).toBeLessThan(10_000);
    // The same socket.io session, resumed: each missed event sent to the page once.
    expect(sessionIds(ada)).toEqual([sessionBefore, sessionBefore]);
    for (const text of during) expect(createdEvents(ada, text)).toBe(1);
    expect(await shown(ada)).toEqual([...before, ...during]);
    await expectBothPagesList(ada, bob, [...before, ...during]);
  }, 30_000);

  it(
    'reloads its list from the server, signed in again, when it was offline ' +
      'longer than the resume window: no hole, no duplicate',
    async () => {
      const { ada, bob, before } = await chat(
        { EVENTS_RESUME_WINDOW_MS: String(SHORT_WINDOW_MS) },
        { controlledClock: true },
      );
      const sessionBefore = sessionIds(ada).at(-1);
      const offlineAt = Date.now();
      await goOffline(ada);
      const during = await postWhileAway(ada, bob, 5);
      // The page lives through a long absence (the login its client queued when the socket dropped
      // times out meanwhile); the server's own short window is over when the network returns.
      await ada.page.clock.fastForward(LONG_ABSENCE_MS);
      await ada.page.waitForTimeout(Math.max(0, offlineAt + SHORT_WINDOW_MS + 400 - Date.now()));
      const wire = recordWire(ada);
      await ada.context.setOffline(false);
      await listed(ada, during.at(-1)!, 10_000);
      // A fresh session, never sent what it missed: the page asked the server for the list, once signed in again.
      const sessions = sessionIds(ada);
      expect(sessions).toHaveLength(2);
      expect(sessions[1]).not.toBe(sessionBefore);
      for (const text of during) expect(createdEvents(ada, text)).toBe(0);
      const signedIn = wire.findIndex((frame) => /^< 43\d*\[null,\{"accessToken"/.test(frame));
      const askedForList = wire.findIndex((frame) => /^> 42\d*\["find","messages"/.test(frame));
      expect(signedIn).toBeGreaterThan(-1);
      expect(askedForList).toBeGreaterThan(signedIn);
      expect(await shown(ada)).toEqual([...before, ...during]);
      await expectBothPagesList(ada, bob, [...before, ...during]);
    },
    30_000,
  );
});
