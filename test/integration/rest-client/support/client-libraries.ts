import axios from 'axios';
import superagent from 'superagent';
import { rest, type ConfigurableClient, type RestClientOptions } from '../../../../src/adapters/rest-client';

export type LibraryName = 'fetch' | 'axios' | 'superagent';

export interface ClientLibrary {
  name: LibraryName;
  /** The object passed to the library-selecting method (what `app.rest` must hold). */
  connection: unknown;
  client(baseUrl: string, options?: RestClientOptions): ConfigurableClient;
}

const axiosInstance = axios.create();

/** The three request libraries, built the way an application would. */
export const CLIENT_LIBRARIES: readonly ClientLibrary[] = [
  { name: 'fetch', connection: fetch, client: (baseUrl, options) => rest(baseUrl).fetch(fetch, options) },
  {
    name: 'axios',
    connection: axiosInstance,
    client: (baseUrl, options) => rest(baseUrl).axios(axiosInstance, options),
  },
  {
    name: 'superagent',
    connection: superagent,
    client: (baseUrl, options) => rest(baseUrl).superagent(superagent, options),
  },
];

export function clientLibrary(name: LibraryName): ClientLibrary {
  return CLIENT_LIBRARIES.find((library) => library.name === name)!;
}
