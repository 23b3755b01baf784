import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { MemoryService } from '../../../src/adapters/memory';
import { createApp } from '../../../src/application/app/application';
import { CHROMIUM_LAUNCH, chromiumAvailable, chromiumMissingReason } from '../../helpers/chromium';
import { describeIf } from '../../helpers/skip-with-reason';
import { startServer, type RunningServer } from './support/test-server';

class MessageService extends MemoryService {
  async sum(data: { values: number[] }) {
    return { total: data.values.reduce((a, b) => a + b, 0) };
  }
}

const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>rest ' +
  'client</title></head><body><script src="/bundle.js"></script></body></html>';

describeIf(chromiumAvailable, chromiumMissingReason)('REST client in headless Chromium', () => {
  let workDir: string;
  let server: RunningServer;
  let context: BrowserContext;

  beforeAll(async () => {
    workDir = mkdtempSync(path.join(tmpdir(), 'rest-client-browser-'));
    const bundle = path.join(workDir, 'bundle.js');
    await build({
      entryPoints: [path.join(__dirname, '../../browser/client-entry.ts')],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      outfile: bundle,
      logLevel: 'silent',
    });
    const serverApp = createApp().use('messages', new MessageService(), { methods: ['find', 'get', 'create', 'sum'] });
    server = await startServer(serverApp, (outer) => {
      outer.get('/', (_req, res) => void res.type('html').send(PAGE));
      outer.get('/bundle.js', (_req, res) => void res.sendFile(bundle));
    });
    context = await chromium.launchPersistentContext(path.join(workDir, 'profile'), CHROMIUM_LAUNCH);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('finds, creates and calls a custom method against the page origin with every library', async () => {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Warnings only: the deliberate 404s (and favicon) log "Failed to load resource" errors.
    page.on('console', (message) => {
      if (message.type() === 'warning') pageErrors.push(message.text());
    });
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => typeof (window as any).runRestClientScenarios === 'function');
    const results = await page.evaluate(() => (window as any).runRestClientScenarios());

    expect(Object.keys(results)).toEqual([
      'fetch (window.fetch.bind(window))',
      'fetch (unbound global fetch)',
      'axios',
      'superagent',
    ]);
    for (const outcome of Object.values<any>(results)) {
      expect(outcome.failed).toBeUndefined();
      expect(outcome.baseOrigin).toBe(server.url);
      expect(outcome.created).toEqual({ id: expect.any(Number), text: 'from chromium' });
      expect(outcome.found).toEqual(expect.arrayContaining([{ id: outcome.created.id, text: 'from chromium' }]));
      expect(outcome.sum).toEqual({ total: 5 });
      expect(outcome.events).toEqual([outcome.created]);
      expect(outcome.missing).toEqual({ name: 'NotFound', code: 404, status: 404 });
    }
    expect(pageErrors).toEqual([]);
  });
});
