import type { Browser, BrowserContext, Page, WebSocket } from 'playwright-core';
import { PASSWORD, uniqueEmail } from '../../../helpers/accounts';

export { chromiumAvailable, chromiumMissingReason, launchChromium } from '../../../helpers/chromium';

/** Someone on the chat page, in a browser context of their own. */
export interface ChatPerson {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every frame the page received from the API: WebSocket frames and JSON answers. */
  readonly frames: string[];
  /** The page's WebSockets, in the order it opened them (a reconnect opens another). */
  readonly sockets: WebSocket[];
  /** Uncaught errors on the page and Content Security Policy violations. */
  readonly errors: string[];
  readonly email: string;
}

/**
 * Opens the chat page at `url` in a new context of `browser` and signs up there (with `name`, if
 * given), or, with `existing`, logs in with that account; resolves once the chat is shown. With
 * `controlledClock`, the page's clock is Playwright's (`context.clock`): it runs as usual until the
 * test moves it (`fastForward`: the page lives through time it was not given, a laptop lid closed).
 */
export async function openChatPage(
  browser: Browser,
  url: string,
  { name, existing, controlledClock }: { name?: string; existing?: string; controlledClock?: boolean } = {},
): Promise<ChatPerson> {
  const email = existing ?? uniqueEmail('chat');
  const context = await browser.newContext();
  if (controlledClock) await context.clock.install();
  const page = await context.newPage();
  const frames: string[] = [];
  const sockets: WebSocket[] = [];
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) errors.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  page.on('websocket', (socket) => {
    sockets.push(socket);
    socket.on('framereceived', (frame) => frames.push(String(frame.payload)));
  });
  page.on('response', async (response) => {
    // API answers only (the page itself has a password input, of course).
    if ((response.headers()['content-type'] ?? '').includes('json')) frames.push(await response.text().catch(() => ''));
  });
  await page.goto(`${url}/`);
  await page.fill('#email', email);
  await page.fill('#password', PASSWORD);
  if (name && !existing) await page.fill('#name', name);
  await page.click(existing ? 'button[value="login"]' : 'button[value="signup"]');
  await page.waitForSelector('#chat:not([hidden])', { timeout: 15_000 });
  return { context, page, frames, sockets, errors, email };
}
