import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ServiceDefinition } from '../src/application/services/service-definition';
import { clientTypesSource } from './client-types-source';

/** Where the generated `ServiceTypes` live in a checkout (exported by the client entry points). */
export const CLIENT_TYPES_FILE = 'src/application/services/service-types.generated.ts';
const SERVICE_LIST = 'src/application/services/service-list';

/**
 * `npm run generate:client-types`: writes the clients' `ServiceTypes` from the service
 * definitions (`npm run new:service` runs it). `-- --check` writes nothing and fails when the file
 * differs from what the definitions generate; `--root` points at another checkout.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false }, root: { type: 'string' } } });
  const root = path.resolve(values.root ?? path.join(__dirname, '..'));
  const { SERVICES } = (await import(path.join(root, SERVICE_LIST))) as { SERVICES: readonly ServiceDefinition[] };
  const source = clientTypesSource(SERVICES);
  const file = path.join(root, CLIENT_TYPES_FILE);
  if (values.check) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // missing: reported below as out of date
    }
    if (current !== source) {
      console.error(
        `generate:client-types: ${CLIENT_TYPES_FILE} is not what the service definitions generate; run npm run ` +
          `generate:client-types`,
      );
      process.exit(1);
    }
    console.log(`generate:client-types: ${CLIENT_TYPES_FILE} is up to date`);
    return;
  }
  writeFileSync(file, source);
  console.log(`generate:client-types: wrote ${CLIENT_TYPES_FILE}`);
}

main().catch((error: Error) => {
  console.error(`generate:client-types: ${error.message}`);
  process.exit(1);
});
