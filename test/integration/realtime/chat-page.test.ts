import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PASSWORD, uniqueEmail } from '../reliability/support/accounts';
import { startApp, type RunningApp } from '../reliability/support/app-server';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const available = existsSync(CHROMIUM);
if (!available) console.log(`chat page browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const HASH = /\$2[aby]\$\d\d\$/;

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
  async function person(): Promise<{ page: Page; frames: string[]; errors: string[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const frames: string[] = [];
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
    page.on('response', async (response) => {
      // API answers only (the page itself has a password input, of course).
      if ((response.headers()['content-type'] ?? '').includes('json')) frames.push(await response.text().catch(() => ''));
    });
    await page.goto(`${server.url}/`);
    await page.fill('#email', uniqueEmail('chat'));
    await page.fill('#password', PASSWORD);
    await page.click('button[value="signup"]');
    await page.waitForSelector('#chat:not([hidden])', { timeout: 15_000 });
    return { page, frames, errors };
  }

  it('a message posted by one person appears on the other\'s page within 2 s; no page ever gets a password field', async () => {
    const ada = await person();
    const bob = await person();
    await ada.page.fill('#text', 'hello from Ada');
    const posted = Date.now();
    await ada.page.click('#post-form button');
    await bob.page.waitForSelector('#messages li:has-text("hello from Ada")', { timeout: 2_000 });
    expect(Date.now() - posted).toBeLessThan(2_000);
    await bob.page.fill('#text', 'hi Ada');
    await bob.page.click('#post-form button');
    await ada.page.waitForSelector('#messages li:has-text("hi Ada")', { timeout: 2_000 });
    // Each message is shown once on each page.
    expect(await ada.page.locator('#messages li:has-text("hello from Ada")').count()).toBe(1);
    expect(await bob.page.locator('#messages li:has-text("hello from Ada")').count()).toBe(1);
    for (const { page, frames, errors } of [ada, bob]) {
      expect(frames.length).toBeGreaterThan(3);
      for (const frame of frames) {
        expect(frame).not.toContain('"password"');
        expect(frame).not.toMatch(HASH);
      }
      const html = await page.content();
      expect(html).not.toMatch(HASH);
      expect(errors).toEqual([]);
    }
  }, 60_000);
});
