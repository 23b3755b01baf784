import { parseArgs } from 'node:util';
import { startEmbeddedMongo } from './start-embedded-mongo';
import type { EmbeddedMongoLogger } from './base/logger';

/**
 * `npm run embedded-mongo -- --port 27017 --dbpath ./embedded-data [--bind_ip 127.0.0.1] [--socket /tmp/m.sock]`
 * [--snapshot-interval-ms 60000] [--snapshot-journal-bytes 67108864] [--transaction-timeout-ms 60000]
 * [--replSet rs0 | --standalone] [--change-stream-history-bytes 33554432] [--change-stream-history-events 100000]`
 *
 * A development tool for any client: it listens on TCP without authentication (its help says so).
 * The stand-alone server keeps its own folder: `./data` belongs to `npm start` (its embedded
 * database and development secret), and one server at a time may use a folder.
 */
const DEFAULT_DBPATH = './embedded-data';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '27017' },
      bind_ip: { type: 'string', default: '127.0.0.1' },
      dbpath: { type: 'string', default: DEFAULT_DBPATH },
      socket: { type: 'string' },
      'snapshot-interval-ms': { type: 'string' },
      'snapshot-journal-bytes': { type: 'string' },
      'transaction-timeout-ms': { type: 'string' },
      replSet: { type: 'string' },
      standalone: { type: 'boolean', default: false },
      'change-stream-history-bytes': { type: 'string' },
      'change-stream-history-events': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      `usage: embedded-mongo [--port 27017] [--bind_ip 127.0.0.1] [--dbpath ${DEFAULT_DBPATH} | :memory:] [--socket ` +
        `path]\n` +
        '       [--snapshot-interval-ms 60000] [--snapshot-journal-bytes 67108864] [--transaction-timeout-ms 60000]\n' +
        '       [--replSet rs0 | --standalone] [--change-stream-history-bytes 33554432] ' +
        '[--change-stream-history-events 100000]\n' +
        'It is a one-member replica set named rs0 (--replSet names it), with transactions and change streams;\n' +
        '--standalone reports a standalone and then refuses both, as mongod does.\n' +
        `--dbpath defaults to ${DEFAULT_DBPATH}, a folder of its own: ./data is the application's (npm start), and ` +
        `a\n` +
        'folder serves one server at a time.\n' +
        'This server has NO authentication: any process that reaches its port (or socket) reads and writes every\n' +
        'database. It is a development tool: keep --bind_ip on loopback on a machine you do not share. (The\n' +
        'application hosts its own copy on a private Unix socket instead.)',
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be an integer 0..65535, got '${values.port}'`);
  const logger: EmbeddedMongoLogger = {
    info: (message, meta) => console.log(message, meta ?? ''),
    warn: (message, meta) => console.warn(message, meta ?? ''),
    error: (message, meta) => console.error(message, meta ?? ''),
  };
  const server = await startEmbeddedMongo({
    host: values.bind_ip,
    port,
    dataDir: values.dbpath,
    socketPath: values.socket,
    logger,
    snapshotIntervalMs: optionalInteger(values['snapshot-interval-ms'], '--snapshot-interval-ms'),
    snapshotJournalBytes: optionalInteger(values['snapshot-journal-bytes'], '--snapshot-journal-bytes'),
    transactionTimeoutMs: optionalInteger(values['transaction-timeout-ms'], '--transaction-timeout-ms'),
    replicaSetName: values.replSet,
    standalone: values.standalone,
    changeStreamHistoryBytes: optionalInteger(values['change-stream-history-bytes'], '--change-stream-history-bytes'),
    changeStreamHistoryEvents: optionalInteger(
      values['change-stream-history-events'],
      '--change-stream-history-events',
    ),
  });
  const shutdown = (signal: string): void => {
    console.log(`${signal}: flushing and stopping`);
    server.stop().then(
      () => process.exit(0),
      (error: Error) => {
        console.error(error.message);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

function optionalInteger(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${flag} must be a positive integer, got '${raw}'`);
  return value;
}

main().catch((error: Error) => {
  console.error(`embedded-mongo: ${error.message}`);
  process.exit(1);
});
