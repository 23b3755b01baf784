import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PASSWORD, uniqueEmail } from '../reliability/support/accounts';
import { startApp, type RunningApp } from '../reliability/support/app-server';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const available = existsSync(CHROMIUM);
if (!available) console.log(`chat page browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const HASH = /\$2[aby]\$\d\d\$|\$scrypt\$/;

/** The live chat page at `/`, in headless Chromium: two people in two browser contexts. */
(available ? describe : describe.skip)('live chat page', () => {
  let server: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    server = await startApp({ STORE: 'memory' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A person on the page; every frame the page receives from the API is kept. */
  async function person(name?: string): Promise<{ page: Page; frames: string[]; errors: string[]; email: string }> {
    const email = uniqueEmail('chat');
    const context = await browser.newContext();
    const page = await context.newPage();
    const frames: string[] = [];
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) errors.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`));
    });
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
    page.on('response', async (response) => {
      // API answers only (the page itself has a password input, of course).
      if ((response.headers()['content-type'] ?? '').includes('json')) frames.push(await response.text().catch(() => ''));
    });
    await page.goto(`${server.url}/`);
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    if (name) await page.fill('#name', name);
    await page.click('button[value="signup"]');
    await page.waitForSelector('#chat:not([hidden])', { timeout: 15_000 });
    return { page, frames, errors, email };
  }

  it('a message posted by one person appears on the other\'s page within 2 s under its author\'s name; no page ever gets a password or another\'s e-mail', async () => {
    const ada = await person('Ada');
    const bob = await person('Bob');
    await ada.page.fill('#text', 'hello from Ada');
    const posted = Date.now();
    await ada.page.click('#post-form button');
    await bob.page.waitForSelector('#messages li:has-text("hello from Ada")', { timeout: 2_000 });
    expect(Date.now() - posted).toBeLessThan(2_000);
    // The author by the name given at sign-up; nobody else's e-mail ever reaches a page.
    await bob.page.waitForSelector('#messages li:has-text("hello from Ada") .author:text-is("Ada")', { timeout: 2_000 });
    expect(await bob.page.locator('#messages li:has-text("hello from Ada") .avatar').textContent()).toBe('A');
    expect(bob.frames.join('\n')).not.toContain(ada.email);
    await bob.page.fill('#text', 'hi Ada');
    await bob.page.click('#post-form button');
    await ada.page.waitForSelector('#messages li:has-text("hi Ada")', { timeout: 2_000 });
    // Each message is shown once on each page.
    expect(await ada.page.locator('#messages li:has-text("hello from Ada")').count()).toBe(1);
    expect(await bob.page.locator('#messages li:has-text("hello from Ada")').count()).toBe(1);
    // Bob likes Ada's message: his own like on his page, the count on hers; only Ada may delete it.
    const adasOnBobsPage = bob.page.locator('#messages li:has-text("hello from Ada")');
    expect(await adasOnBobsPage.locator('.delete').count()).toBe(0);
    await adasOnBobsPage.locator('.like').click();
    await bob.page.waitForSelector('#messages li:has-text("hello from Ada") .like:has-text("\u2665 1")', { timeout: 2_000 });
    await ada.page.waitForSelector('#messages li:has-text("hello from Ada") .like:has-text("\u2661 1")', { timeout: 2_000 });
    // What a person sees, kept for a look (test output names the file).
    const screenshot = path.join(os.tmpdir(), `chat-page-${process.pid}.png`);
    await ada.page.screenshot({ path: screenshot, fullPage: true });
    console.log(`chat page as Ada sees it: ${screenshot}`);
    await ada.page.locator('#messages li:has-text("hello from Ada") .delete').click();
    await bob.page.waitForSelector('#messages li:has-text("hello from Ada")', { state: 'detached', timeout: 2_000 });
    // Who liked a message is for its author: Bob's page never receives it.
    expect(bob.frames.join('\n')).not.toContain('likedBy');
    for (const { page, frames, errors } of [ada, bob]) {
      expect(frames.length).toBeGreaterThan(3);
      for (const frame of frames) {
        expect(frame).not.toContain('"password"');
        expect(frame).not.toMatch(HASH);
      }
      const html = await page.content();
      expect(html).not.toMatch(HASH);
      expect(errors).toEqual([]); // the socket's own websocket is within the CSP
    }
  }, 60_000);

  it('lets the page connect to its own origin only', async () => {
    const response = await fetch(`${server.url}/`);
    const policy = new Map((response.headers.get('content-security-policy') ?? '').split(';').map((directive) => {
      const [name, ...values] = directive.trim().split(/\s+/);
      return [name, values] as const;
    }));
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    // In the browser: a websocket to another origin (another port of this host) is refused by the CSP, before any connection.
    const { page, errors } = await person();
    const foreignPort = new URL(server.url).port === '1' ? 2 : 1;
    await page.evaluate((url) => void new WebSocket(url), `ws://127.0.0.1:${foreignPort}/`);
    const blocked = /^Content Security Policy violation: connect-src ws:\/\/127\.0\.0\.1:[12]\//;
    for (let waited = 0; waited < 2_000 && !errors.some((line) => blocked.test(line)); waited += 50) await page.waitForTimeout(50);
    expect(errors).toContainEqual(expect.stringMatching(blocked));
  }, 60_000);
});
