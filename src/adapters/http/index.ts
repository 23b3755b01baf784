export { createHttpAdapter } from './create-http-adapter';
export { createHttpServer, answerClientErrors, type HttpServerOptions } from './create-http-server';
export type { HttpAdapterOptions } from './http-adapter-options';
export type { ApiDocsOptions } from './docs/api-docs-router';
export type { CorsOptions } from './cors-policy';
export { parseQueryString } from './parse-query-string';
export { MAX_BODY_DEPTH } from './parse-json-body';
