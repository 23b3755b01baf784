export { createHttpAdapter, type HttpAdapter } from './create-http-adapter';
export { listenHttp, type ListenOptions, type ListeningHttpServer } from './listen-http';
export type { HttpAdapterOptions } from './http-adapter-options';
export type { TrustProxy } from './client-address';
export type { ApiDocsOptions } from './docs/api-docs-pages';
export type { CorsOptions } from './cors-policy';
export { parseQueryString } from './parse-query-string';
export { MAX_BODY_DEPTH } from './parse-json-body';
