/**
 * The browser side of the REST client test: bundled by esbuild for the page. It imports only
 * browser-safe code and builds its clients the way a web application does, with NO base URL:
 * `rest()` then talks to the page's own origin.
 */
import axios from 'axios';
import superagent from 'superagent';
import { rest, type ConfigurableClient } from '../../src/adapters/rest-client';
import { createApp } from '../../src/application/app/application';

type Outcome = Record<string, unknown>;

async function scenario(client: ConfigurableClient): Promise<Outcome> {
  const app = createApp().configure(client);
  app.use('messages', client.service('messages'), { methods: ['find', 'create', 'sum'] });
  const messages = app.service('messages');
  const events: unknown[] = [];
  messages.on('created', (item: unknown) => events.push(item));
  const created = await messages.create({
    text: `from ${navigator.userAgent.includes('Chrome') ? 'chromium' : 'a browser'}`,
  });
  const found = await messages.find({ query: { text: created.text, $select: ['text'] } });
  const sum = await messages.sum({ values: [2, 3] });
  const missing = await app
    .service('missing-service')
    .get(1)
    .catch((error: any) => ({
      name: error.name,
      code: error.code,
      status: error.response?.status,
    }));
  return { baseOrigin: location.origin, created, found, sum, events, missing };
}

/** Each library as a web page would pass it; the unbound global `fetch` must work too. */
const clients: Record<string, () => ConfigurableClient> = {
  'fetch (window.fetch.bind(window))': () => rest().fetch(window.fetch.bind(window)),
  'fetch (unbound global fetch)': () => rest().fetch(fetch),
  axios: () => rest().axios(axios),
  superagent: () => rest().superagent(superagent),
};

async function runAll(): Promise<Record<string, Outcome>> {
  const results: Record<string, Outcome> = {};
  for (const [name, make] of Object.entries(clients)) {
    try {
      results[name] = await scenario(make());
    } catch (error: any) {
      results[name] = { failed: `${error?.name}: ${error?.message}` };
    }
  }
  return results;
}

(window as unknown as { runRestClientScenarios: typeof runAll }).runRestClientScenarios = runAll;
