import { chromium, type Browser } from 'playwright-core';
import request from 'supertest';
import { listenHttp, type ListeningHttpServer } from '../../../../src/adapters/http';
import { composeApplication, type ComposedApplication } from '../../../../src/composition-root';
import { loadConfig } from '../../../../src/composition/load-config';
import { CHROMIUM_LAUNCH, chromiumAvailable, chromiumMissingReason } from '../../../helpers/chromium';
import { describeIf } from '../../../helpers/skip-with-reason';

/**
 * A host name other than localhost, resolved to loopback by the browser itself (browsers exempt
 * localhost from upgrades).
 */
const OTHER_HOST = 'docs.example.test';

const EMAIL = 'grace@example.com';
const PASSWORD = 'correct horse battery';

describeIf(chromiumAvailable, chromiumMissingReason)('the API docs page in headless Chromium', () => {
  let composed: ComposedApplication;
  let server: ListeningHttpServer | undefined;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      STORE: 'memory',
      DATA_DIR: ':memory:',
      AUTH_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
    });
    composed = await composeApplication(config, { authentication: { passwordHashCost: 10 } });
    server = await listenHttp(composed.http, { host: '127.0.0.1', port: 0 });
    origin = server.url;
    const agent = request(origin);
    await agent.post('/users').send({ email: EMAIL, password: PASSWORD }).expect(201);
    const login = await agent
      .post('/authentication')
      .send({ strategy: 'local', email: EMAIL, password: PASSWORD })
      .expect(201);
    await agent
      .post('/messages')
      .set('authorization', `Bearer ${login.body.accessToken}`)
      .send({ text: 'written before the page opened' })
      .expect(201);
    browser = await chromium.launch({
      ...CHROMIUM_LAUNCH,
      args: [...(CHROMIUM_LAUNCH.args ?? []), `--host-resolver-rules=MAP ${OTHER_HOST} 127.0.0.1`],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await composed?.close();
  });

  it("is served with helmet's headers and a CSP that allows no inline script", async () => {
    const response = await request(origin).get('/docs').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const directives = new Map(
      String(response.headers['content-security-policy'])
        .split(';')
        .map((directive) => {
          const [name, ...values] = directive.trim().split(/\s+/);
          return [name, values] as const;
        }),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('script-src-attr')).toEqual(["'none'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    for (const header of [
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
    ]) {
      expect([header, response.headers[header]]).toEqual([header, expect.any(String)]);
    }
    const script = await request(origin).get('/docs/init.js').expect(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    await request(origin)
      .get('/docs/swagger-ui-bundle.js')
      .expect(200)
      .expect('content-type', /javascript/);
  });

  it('lets a person sign in through "Try it out" and then call GET /messages, showing the 200 answer', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    const messageRequests: { authorization?: string; query: Record<string, string> }[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('request', (sent) => {
      if (!sent.url().startsWith(`${origin}/`)) foreign.push(sent.url());
      const url = new URL(sent.url());
      if (url.pathname === '/messages')
        messageRequests.push({
          authorization: sent.headers().authorization,
          query: Object.fromEntries(url.searchParams),
        });
    });
    await page.addInitScript(() => {
      (window as any).cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as any).cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });

    await page.goto(`${origin}/docs`);
    const operation = (verb: string, path: string) =>
      page.locator(`.opblock.opblock-${verb}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
    const login = operation('post', '/authentication');
    await login.locator('.opblock-summary').first().click();
    await login.locator('button.try-out__btn').click();
    await login
      .locator('textarea.body-param__text')
      .fill(JSON.stringify({ strategy: 'local', email: EMAIL, password: PASSWORD }));
    await login.locator('button.execute').click();
    await login.locator('.live-responses-table .response-col_status', { hasText: '201' }).waitFor({ timeout: 20_000 });
    // The page took the token from the login answer: the bearer scheme is authorized.
    const authorized = await page.evaluate(() => (window as any).ui.authSelectors.authorized().toJS());
    expect(authorized.bearerAuth?.value).toEqual(expect.any(String));

    const find = operation('get', '/messages');
    await find.locator('.opblock-summary').first().click();
    await find.locator('button.try-out__btn').click();
    // Two of the documented query parameters, filled in as a person would.
    await find.locator('tr[data-param-name="$limit"] input').fill('5');
    await find.locator('tr[data-param-name="text[$ne]"] input').fill('some other text');
    await find.locator('button.execute').click();
    await find.locator('.live-responses-table .response-col_status', { hasText: '200' }).waitFor({ timeout: 20_000 });
    const shown = await find
      .locator('.live-responses-table tr.response td.response-col_description')
      .first()
      .innerText();
    expect(shown).toContain('written before the page opened');
    expect(shown).toContain('"total": 1');

    expect(messageRequests).toEqual([
      {
        authorization: `Bearer ${authorized.bearerAuth.value}`,
        query: { $limit: '5', 'text[$ne]': 'some other text' },
      },
    ]);
    expect(shown).toContain('"limit": 5');
    expect(foreign).toEqual([]);
    expect(await page.evaluate(() => (window as any).cspViolations)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('renders over plain HTTP on a host name other than localhost (no upgrade of its assets to https)', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (sent) => requested.push(sent.url()));
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    const plainOrigin = `http://${OTHER_HOST}:${new URL(origin).port}`;
    await page.goto(`${plainOrigin}/docs`);
    await page.locator('.opblock-summary-path[data-path="/messages"]').first().waitFor({ timeout: 20_000 });
    expect(requested.filter((url) => !url.startsWith(`${plainOrigin}/`))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
