import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';
import { isObjectPrototypeName } from '../src/application/app/reserved-names';
import { parseFields } from './new-service/field-spec';
import { definitionFile, dtoFile, hooksFile, namesOf, testFile } from './new-service/templates';

/** Paths the application answers itself, which a service may not take. */
const RESERVED_PATHS = new Set(['authentication', 'health', 'ready', 'docs', 'openapi', 'socket-io']);
const SERVICE_LIST = 'src/application/services/service-list.ts';

/**
 * `npm run new:service -- <name> --fields "title:string,done:boolean"`: writes the service's
 * definition, DTOs, hooks and a test, and adds it to the list of services. `--root` points at
 * another checkout (used by the generator's own test).
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { fields: { type: 'string' }, root: { type: 'string' } },
  });
  if (positionals.length !== 1)
    throw new Error('usage: npm run new:service -- <name> --fields "title:string,done:boolean"');
  const [name] = positionals;
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 40) {
    throw new Error(
      `"${name}" is not a service name: lower-case letters and digits, words joined by single dashes, starting with ` +
        `a letter, at most 40 characters`,
    );
  }
  if (RESERVED_PATHS.has(name))
    throw new Error(`"${name}" is a path the application answers itself; choose another name`);
  // Configuration and bindings are looked up by this name (`<NAME>_REMOTE_URL`): never one every object has.
  if (isObjectPrototypeName(name) || isObjectPrototypeName(name.replace(/-/g, '_'))) {
    throw new Error(`"${name}" is a name every JavaScript object has (Object.prototype.${name}); choose another name`);
  }
  if (values.fields === undefined) throw new Error('--fields is required, e.g. --fields "title:string,done:boolean"');
  const fields = parseFields(values.fields);
  const root = path.resolve(values.root ?? process.cwd());
  const names = namesOf(name);
  const folder = path.join(root, 'src/application/services', name);
  const listFile = path.join(root, SERVICE_LIST);
  const list = await readFile(listFile, 'utf8');
  if (existsSync(folder) || new RegExp(`\\b${names.camel}Service\\b`).test(list))
    throw new Error(`a service named "${name}" exists already (${path.relative(root, folder)})`);
  const updatedList = addToList(list, names.camel, name);
  const testPath = path.join(root, 'test/integration/services', `${name}.test.ts`);
  await mkdir(folder, { recursive: true });
  await mkdir(path.dirname(testPath), { recursive: true });
  const written = [
    [path.join(folder, `${name}.dto.ts`), dtoFile(names, fields)],
    [path.join(folder, `${name}.hooks.ts`), hooksFile(names)],
    [path.join(folder, `${name}.definition.ts`), definitionFile(names, fields)],
    [testPath, testFile(names, fields)],
  ] as const;
  for (const [file, text] of written) await writeFile(file, await formatted(file, text), { flag: 'wx' });
  await writeFile(listFile, await formatted(listFile, updatedList));
  for (const [file] of written) console.log(`created ${path.relative(root, file)}`);
  console.log(`updated ${SERVICE_LIST}`);
  // The clients' types follow the definitions: regenerated here, so that nothing is edited by hand.
  const types = spawnSync(
    process.execPath,
    ['-r', '@swc-node/register', path.join(__dirname, 'generate-client-types.ts'), '--root', root],
    { cwd: root, encoding: 'utf8' },
  );
  if (types.status !== 0)
    throw new Error(`the service was written, but the client types were not regenerated: ${types.stderr.trim()}`);
  console.log(types.stdout.trim().replace(/^generate:client-types: wrote/, 'updated'));
  console.log(`next: edit the DTOs and hooks in ${path.relative(root, folder)}/, then npm test`);
}

/** The project's formatter applied, so that what the generator writes passes `npm run format:check`. */
async function formatted(file: string, text: string): Promise<string> {
  return format(text, { ...(await resolveConfig(file)), filepath: file });
}

/** The list with the new definition imported and appended; throws if the list is not where it should be. */
function addToList(list: string, camel: string, name: string): string {
  const entries = /(export const SERVICES[^=]*=\s*\[)([^\]]*)(\];)/;
  if (!entries.test(list)) throw new Error(`could not find "export const SERVICES = [...]" in ${SERVICE_LIST}`);
  const withEntry = list.replace(
    entries,
    (_match, open: string, items: string, close: string) =>
      `${open}${items.trim().replace(/,$/, '')}, ${camel}Service${close}`,
  );
  const lastImport = withEntry.lastIndexOf('\nimport ');
  const importEnd = withEntry.indexOf('\n', lastImport + 1);
  return (
    `${withEntry.slice(0, importEnd + 1)}import { ${camel}Service } from ` +
    `'./${name}/${name}.definition';\n${withEntry.slice(importEnd + 1)}`
  );
}

main().catch((error: Error) => {
  console.error(`new:service: ${error.message}`);
  process.exit(1);
});
