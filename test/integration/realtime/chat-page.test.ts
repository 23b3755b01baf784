import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { describeIf } from '../../helpers/skip-with-reason';
import { PASSWORD, uniqueEmail } from '../../helpers/accounts';
import { startApp, type RunningApp } from '../../helpers/app-server';
import { call } from '../../helpers/http';
import {
  chromiumAvailable,
  chromiumMissingReason,
  launchChromium,
  openChatPage,
  type ChatPerson,
} from './support/chat-page-browser';

const HASH = /\$2[aby]\$\d\d\$|\$scrypt\$/;

/** The live chat page at `/`, in headless Chromium: two people and an admin in three browser contexts. */
describeIf(chromiumAvailable, chromiumMissingReason)('live chat page', () => {
  let server: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    server = await startApp({ STORE: 'memory' });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Someone on the page, signed up there (or, with `existing`, logging in with that account). */
  function person(name?: string, existing?: string): Promise<ChatPerson> {
    return openChatPage(browser, server.url, { name, existing });
  }

  /** An account made through the API (its messages posted there too), for what happened before the pages opened. */
  async function account(name: string): Promise<{ id: string; email: string; token: string }> {
    const email = uniqueEmail(name.toLowerCase());
    const created = await call(server.url, 'POST', '/users', { body: { email, password: PASSWORD, name } });
    const login = await call(server.url, 'POST', '/authentication', {
      body: { strategy: 'local', email, password: PASSWORD },
    });
    return { id: String(created.body._id), email, token: login.body.accessToken };
  }

  it(
    "a message posted by one person appears on the other's page within 2 s under its " +
      "author's name; no page ever gets a password or another's e-mail",
    async () => {
      // 30 earlier messages: a page shows the newest 20, the rest when scrolled up.
      const cy = await account('Cy');
      for (let index = 0; index < 30; index += 1)
        expect(
          (await call(server.url, 'POST', '/messages', { token: cy.token, body: { text: `earlier ${index}` } })).status,
        ).toBe(201);
      // An admin, granted the role in the store the way `npm run grant-role` does, then logging in on the page.
      const chief = await account('Chief');
      await server.composed.app.lookup('users')!.original._patch(chief.id, { roles: ['admin'] });
      const ada = await person('Ada');
      const bob = await person('Bob');
      const admin = await person(undefined, chief.email);
      const earlier = ada.page.locator('#messages li:has-text("earlier")');
      expect(await earlier.count()).toBe(20);
      expect(await earlier.first().locator('.text').textContent()).toBe('earlier 10');
      await ada.page.locator('#messages').evaluate((list) => list.scrollTo({ top: 0 }));
      await ada.page.waitForSelector('#messages li:first-child:has-text("earlier 0")', { timeout: 2_000 });
      expect(await earlier.count()).toBe(30);
      expect(await earlier.nth(29).locator('.text').textContent()).toBe('earlier 29');
      expect(await ada.page.locator('#messages li:has-text("earlier 0") .author').textContent()).toBe('Cy');
      await ada.page.locator('#messages').evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
      await ada.page.fill('#text', 'hello from Ada');
      const posted = Date.now();
      await ada.page.click('#post-form button');
      await bob.page.waitForSelector('#messages li:has-text("hello from Ada")', { timeout: 2_000 });
      expect(Date.now() - posted).toBeLessThan(2_000);
      // The author by the name given at sign-up; nobody else's e-mail ever reaches a page.
      await bob.page.waitForSelector('#messages li:has-text("hello from Ada") .author:text-is("Ada")', {
        timeout: 2_000,
      });
      expect(await bob.page.locator('#messages li:has-text("hello from Ada") .avatar').textContent()).toBe('A');
      expect(bob.frames.join('\n')).not.toContain(ada.email);
      await bob.page.fill('#text', 'hi Ada');
      await bob.page.click('#post-form button');
      await ada.page.waitForSelector('#messages li:has-text("hi Ada")', { timeout: 2_000 });
      await admin.page.waitForSelector('#messages li:has-text("hi Ada")', { timeout: 2_000 });
      // The admin may delete anyone's message; it disappears from both other pages within 2 s.
      expect(await ada.page.locator('#messages li:has-text("hi Ada") .delete').count()).toBe(0);
      const removed = Date.now();
      await admin.page.locator('#messages li:has-text("hi Ada") .delete').click();
      await ada.page.waitForSelector('#messages li:has-text("hi Ada")', { state: 'detached', timeout: 2_000 });
      await bob.page.waitForSelector('#messages li:has-text("hi Ada")', { state: 'detached', timeout: 2_000 });
      expect(Date.now() - removed).toBeLessThan(2_000);
      // Each message is shown once on each page.
      expect(await ada.page.locator('#messages li:has-text("hello from Ada")').count()).toBe(1);
      expect(await bob.page.locator('#messages li:has-text("hello from Ada")').count()).toBe(1);
      // Bob likes Ada's message: his own like on his page, the count on hers; only Ada may delete it.
      const adasOnBobsPage = bob.page.locator('#messages li:has-text("hello from Ada")');
      expect(await adasOnBobsPage.locator('.delete').count()).toBe(0);
      await adasOnBobsPage.locator('.like').click();
      await bob.page.waitForSelector('#messages li:has-text("hello from Ada") .like:has-text("\u2665 1")', {
        timeout: 2_000,
      });
      await ada.page.waitForSelector('#messages li:has-text("hello from Ada") .like:has-text("\u2661 1")', {
        timeout: 2_000,
      });
      // What a person sees, kept for a look (test output names the file).
      const screenshot = path.join(os.tmpdir(), `chat-page-${process.pid}.png`);
      await ada.page.screenshot({ path: screenshot, fullPage: true });
      console.log(`chat page as Ada sees it: ${screenshot}`);
      await ada.page.locator('#messages li:has-text("hello from Ada") .delete').click();
      await bob.page.waitForSelector('#messages li:has-text("hello from Ada")', { state: 'detached', timeout: 2_000 });
      // Who liked a message is for its author: Bob's page never receives it, nor anyone else's e-mail.
      expect(bob.frames.join('\n')).not.toContain('likedBy');
      for (const [viewer, others] of [
        [ada, [bob.email, chief.email, cy.email]],
        [bob, [ada.email, chief.email, cy.email]],
        [admin, [ada.email, bob.email, cy.email]],
      ] as const) {
        for (const email of others) expect(viewer.frames.join('\n')).not.toContain(email);
      }
      for (const { page, frames, errors } of [ada, bob, admin]) {
        expect(frames.length).toBeGreaterThan(3);
        for (const frame of frames) {
          expect(frame).not.toContain('"password"');
          expect(frame).not.toMatch(HASH);
        }
        const html = await page.content();
        expect(html).not.toMatch(HASH);
        expect(errors).toEqual([]); // the socket's own websocket is within the CSP
      }
    },
    60_000,
  );

  it('lets the page connect to its own origin only', async () => {
    const response = await fetch(`${server.url}/`);
    const policy = new Map(
      (response.headers.get('content-security-policy') ?? '').split(';').map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    // In the browser: a websocket to another origin (another port of this host) is refused by the
    // CSP, before any connection.
    const { page, errors } = await person();
    const foreignPort = new URL(server.url).port === '1' ? 2 : 1;
    await page.evaluate((url) => void new WebSocket(url), `ws://127.0.0.1:${foreignPort}/`);
    const blocked = /^Content Security Policy violation: connect-src ws:\/\/127\.0\.0\.1:[12]\//;
    for (let waited = 0; waited < 2_000 && !errors.some((line) => blocked.test(line)); waited += 50)
      await page.waitForTimeout(50);
    expect(errors).toContainEqual(expect.stringMatching(blocked));
  }, 60_000);
});
