import { spawnTs, type ChildHandle } from './child-process';

export interface EmbeddedMongoChild {
  readonly child: ChildHandle;
  readonly url: string;
}

/** Starts the embedded server's CLI in a child process on `port` and waits until it listens. */
export async function startEmbeddedMongoChild(port: number, dbpath: string): Promise<EmbeddedMongoChild> {
  const child = spawnTs('src/embedded-mongo/cli.ts', ['--port', String(port), '--dbpath', dbpath], {});
  const [, url] = await child.waitForOutput(/embedded mongo listening \{ url: '([^']+)'/, 20_000);
  return { child, url };
}
