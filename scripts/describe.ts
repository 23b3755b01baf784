import 'reflect-metadata';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serviceMethodFor } from '../src/adapters/http/http-method-mapping';
import type { Application } from '../src/application/app/application';
import { DEFAULT_EVENTS } from '../src/application/hooks/hook-context';
import { callLayers, type CallLayer } from '../src/application/lifecycle/call-layers';
import { SERVICE_STAGES } from '../src/application/lifecycle/service-stages';
import { composeApplication } from '../src/composition-root';
import { loadConfig } from '../src/composition/load-config';
import { Tokens } from '../src/composition/tokens';

/** What a transport does around the stages, and the executor's own step after them. */
const TRANSPORT = {
  decode: {
    why: 'the request or socket frame into (path, method, id, data, params), with limits; provider set',
    files: ['src/adapters/http/http-dispatcher.ts', 'src/adapters/socketio/socket-call.ts'],
  },
  publish: {
    why: "after success, the event (created, patched, ...) to the channels the service's publisher picks",
    files: ['src/application/app/application.ts', 'src/application/channels/real-time-hub.ts'],
  },
  encode: {
    why: 'the answer (or error) in the wire format: status, headers, JSON; the socket ack',
    files: ['src/adapters/http/page-answer.ts', 'src/adapters/socketio/socket-call.ts'],
  },
} as const;

const ROOT = path.resolve(__dirname, '..');

/**
 * `npm run describe -- <service> [--method get] [--internal]`: for each method of a service, the
 * stages a call crosses in order, the files that implement each, and what the service's definition
 * put in each stage's slot. The application is composed as `npm start` would compose it from the
 * environment (on `STORE=memory` unless STORE is set), and its chains are read, not restated.
 */
async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { method: { type: 'string' }, internal: { type: 'boolean', default: false } },
  });
  const env = { ...process.env, STORE: process.env.STORE ?? 'memory', DATA_DIR: process.env.DATA_DIR ?? ':memory:' };
  const composed = await composeApplication(loadConfig(env), { logger: silentLogger() });
  try {
    const { app } = composed;
    const paths = app.entries().map((entry) => entry.path);
    if (positionals.length !== 1 || !paths.includes(positionals[0])) {
      throw new Error(
        `usage: npm run describe -- <service> [--method <name>] [--internal]; services: ${paths.join(', ')}`,
      );
    }
    const [service] = positionals;
    const entry = app.lookup(service)!;
    // The application's services have a store plan; those the composition registers itself do not.
    const defined = composed.container.get(Tokens.services.definitions).some((each) => each.path === service);
    const remote = defined && composed.container.get(Tokens.services.storePlans).of(service).store === 'remote';
    const storeName = entry.original.constructor?.name ?? 'the store';
    const methods = values.method ? [values.method] : [...entry.hookedMethods];
    if (values.method && !entry.hookedMethods.includes(values.method))
      throw new Error(`'${service}' has no method '${values.method}'; it has ${entry.hookedMethods.join(', ')}`);
    console.log(
      defined
        ? `${service}: stored ${remote ? 'on another server, through' : 'here, in'} ${storeName} (STORE=${env.STORE}).`
        : `${service}: ${storeName}, registered by the composition itself, not from the list of services.`,
    );
    console.log(
      `The stages of ${values.internal ? 'an internal call (--internal)' : 'a call from a transport'}, in order;` +
        ' each runs on the way in, top to bottom, and on the way out, bottom to top (docs/lifecycle.md):',
    );
    for (const line of legend()) console.log(`  ${line}`);
    for (const method of methods) {
      const layers = callLayers(app, service, method, !values.internal);
      console.log(`\n${method}${routesOf(service, method, entry.methods)}`);
      for (const line of describeMethod(app, service, method, layers, { remote, internal: values.internal })) {
        console.log(`  ${line}`);
      }
    }
  } finally {
    await composed.close();
  }
}

/** The rows of one method: decode, every stage in order (with what fills it, or why it is empty), publish, encode. */
function describeMethod(
  app: Application,
  service: string,
  method: string,
  layers: readonly CallLayer[],
  { remote, internal }: { remote: boolean; internal: boolean },
): string[] {
  const rows: string[][] = [];
  const row = (name: string, files: readonly string[], slot: string) => {
    for (const file of files) if (!existsSync(path.join(ROOT, file))) throw new Error(`${name}: no file ${file}`);
    rows.push([name, files.join(', '), slot]);
  };
  if (!internal) row('decode', TRANSPORT.decode.files, 'the transport');
  for (const layer of layers.filter((layer) => layer.stage === 'app hooks')) row('app hooks', [], layer.slot);
  for (const stage of SERVICE_STAGES) {
    const layer = layers.find((candidate) => candidate.stage === stage.name);
    const empty =
      stage.runsOn === 'storing server' && remote
        ? 'skipped: the storing server runs it'
        : stage.calls === 'external calls' && internal
          ? "skipped: internal calls are the server's own"
          : '-';
    // The definition's own hooks live, by the generator's convention, beside its definition.
    const ownFile = `src/application/services/${service}/${service}.hooks.ts`;
    const ownHooks = layer !== undefined && /\b(around|before|after|error):/.test(layer.slot);
    const files = ownHooks && existsSync(path.join(ROOT, ownFile)) ? [ownFile, ...stage.files] : stage.files;
    if (stage.name === 'store') {
      for (const added of layers.filter((candidate) => candidate.stage === 'added hooks'))
        row('added hooks', [], added.slot);
      const stamps = layer && !remote ? `${layer.slot}; then ` : '';
      row(
        stage.name,
        layer && !remote ? files : [],
        `${stamps}${app.lookup(service)!.original.constructor.name}.${method}`,
      );
    } else row(stage.name, layer ? files : [], layer ? layer.slot : empty);
  }
  const entry = app.lookup(service)!;
  const eventful = entry.options.localEvents !== false && DEFAULT_EVENTS[method] !== undefined;
  row('publish', eventful ? TRANSPORT.publish.files : [], eventful ? 'the event of a write' : '-');
  if (!internal) row('encode', TRANSPORT.encode.files, 'the transport');
  const width = (column: number) => Math.max(...rows.map((cells) => cells[column].length));
  return rows.map(([name, files, slot]) => `${name.padEnd(width(0))}  ${slot.padEnd(width(2))}  ${files}`.trimEnd());
}

/** Each stage and why it is there, in the order a call crosses them. */
function legend(): string[] {
  const rows: [string, string][] = [['decode', TRANSPORT.decode.why]];
  for (const stage of SERVICE_STAGES) {
    const where = [
      stage.runsOn === 'storing server' ? 'where the records are stored' : '',
      stage.calls === 'external calls' ? 'calls from transports only' : '',
    ].filter(Boolean);
    rows.push([stage.name, `${stage.why}${where.length > 0 ? ` (${where.join('; ')})` : ''}`]);
  }
  rows.push(['publish', TRANSPORT.publish.why], ['encode', TRANSPORT.encode.why]);
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, why]) => `${name.padEnd(width)}  ${why}`);
}

/** How the HTTP and socket transports reach a method, from the HTTP adapter's own mapping. */
function routesOf(service: string, method: string, exposed: readonly string[]): string {
  if (!exposed.includes(method)) return ' (internal only: no transport reaches it)';
  const routes: string[] = [];
  for (const verb of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
    for (const hasId of [false, true])
      if (serviceMethodFor(verb, hasId) === method) routes.push(`${verb} /${service}${hasId ? '/:id' : ''}`);
  if (routes.length === 0) routes.push(`POST /${service} with X-Service-Method: ${method}`);
  return ` (HTTP ${routes.join(', ')}; socket "${method}")`;
}

function silentLogger() {
  const logger = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => logger };
  return logger as never;
}

main().catch((error: Error) => {
  console.error(`describe: ${error.message}`);
  process.exit(1);
});
