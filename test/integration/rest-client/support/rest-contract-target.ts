import { MemoryService } from '../../../../src/adapters/memory';
import { createApp } from '../../../../src/application/app/application';
import type { HookContext } from '../../../../src/application/hooks/hook-context';
import type { ContractTarget } from '../../../contract/service-contract.suite';
import type { ClientLibrary } from './client-libraries';
import { startServer } from './test-server';

const MAX_DEPTH = 8;

/** URL values arrive as strings; the contract's records have a numeric `age` (the suite asks servers to convert it). */
function numericAge(value: unknown, depth = 0, key = ''): unknown {
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => numericAge(item, depth + 1, key));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        name,
        numericAge(item, depth + 1, name.startsWith('$') && key === 'age' ? 'age' : name),
      ]),
    );
  }
  return key === 'age' && typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))
    ? Number(value)
    : value;
}

function convertQuery(context: HookContext): void {
  if (context.params.query) context.params.query = numericAge(context.params.query) as Record<string, unknown>;
}

/**
 * The REST client as a contract target: a `MemoryService` behind the real HTTP adapter on a
 * loopback port, called through `rest(url).<library>(...)` registered in a client app.
 */
export function restContractTarget(library: ClientLibrary): ContractTarget {
  return {
    name: `REST client (${library.name})`,
    capabilities: { adapterParams: false, paginateParam: false },
    async create(options) {
      const serverApp = createApp();
      serverApp.use('people', new MemoryService({ ...options }));
      serverApp.service('people').hooks({ before: { all: [convertQuery] } });
      const server = await startServer(serverApp);
      const clientApp = createApp();
      clientApp.use(
        'people',
        library.client(server.url).service('people'),
        options.events ? { events: options.events } : {},
      );
      return { service: clientApp.service('people'), close: server.close };
    },
  };
}
