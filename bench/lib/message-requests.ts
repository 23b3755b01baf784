import type { LoadRequest } from './http-load';

export type RequestKind = 'get' | 'find' | 'create';
export const REQUEST_KINDS: RequestKind[] = ['get', 'find', 'create'];

const CREATE_BODY = JSON.stringify({ text: 'A benchmark message', userId: 7 });

/** The HTTP request of each benchmarked call, against a server whose sample id is `sampleId`. */
export function messageRequest(kind: RequestKind, sampleId: string, token?: string): LoadRequest {
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  switch (kind) {
    case 'get':
      return { method: 'GET', path: `/messages/${sampleId}`, headers };
    case 'find':
      return { method: 'GET', path: '/messages?$limit=10', headers };
    case 'create':
      return { method: 'POST', path: '/messages', body: CREATE_BODY, headers };
  }
}

export const REQUEST_TITLES: Record<RequestKind, string> = {
  get: 'GET /messages/:id',
  find: 'GET /messages?$limit=10',
  create: 'POST /messages',
};
