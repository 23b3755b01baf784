import { spawn } from 'node:child_process';

/**
 * What the sink runs: plain JavaScript (no loader, no framework), a server that drains each
 * export and answers 200 at once. An empty body is a valid (empty) OTLP answer in both encodings.
 */
const SINK_PROGRAM = `
const server = require('node:http').createServer((req, res) => { req.on('end', () => res.end()); req.resume(); });
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
process.on('disconnect', () => process.exit(0));
`;

export interface OtlpSink {
  /** The traces URL to export to. */
  readonly tracesUrl: string;
  stop(): Promise<void>;
}

/**
 * An OTLP receiver that discards what it gets, in a process of its own: receiving and reading
 * the exports is the collector's work, not the traced server's, so it must not add to the CPU
 * measured in the server's process (nor, under valgrind, to its instruction count).
 */
export function startOtlpSink(): Promise<OtlpSink> {
  const child = spawn(process.execPath, ['-e', SINK_PROGRAM], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the OTLP sink exited with ${code} before it listened`)));
    child.once('message', (port) => {
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      resolve({
        tracesUrl: `http://127.0.0.1:${Number(port)}/v1/traces`,
        stop: () => {
          child.disconnect();
          return exited;
        },
      });
    });
  });
}
