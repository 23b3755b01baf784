import type { StaticPage } from './docs/api-docs-pages';
import type { HttpAdapterSettings } from './http-adapter-options';
import type { HttpExchange } from './http-exchange';

/** A fixed page with the page headers (helmet's set for this request, CORS), logged like any answer. */
export async function answerPage(
  exchange: HttpExchange,
  settings: HttpAdapterSettings,
  page: StaticPage,
): Promise<void> {
  const body = await page.body();
  const headers = settings.headers.page(exchange.req);
  headers['content-type'] = page.contentType;
  headers['cache-control'] = page.cacheControl;
  exchange.sendPage(200, headers, body);
}
