/**
 * A flooding client in its own process, so the server's latency is measured without the cost of
 * writing the frames: `flood-child.ts <url> <token> <frames> <method> <path>` connects signed in,
 * prints `connected`, writes every frame at once 300 ms later (the parent's probes are running
 * by then, and this process has finished starting), waits until the server ends the connection (at most 15 s), and
 * prints one JSON line with what came back.
 */
import { RawSocketCaller } from '../../../helpers/raw-socket-caller';

async function main(): Promise<void> {
  const [url, token, frames, method, path] = process.argv.slice(2);
  const caller = await RawSocketCaller.connect(url, token);
  console.log('connected');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = performance.now();
  const sent = caller.flood(Number(frames), method, path, {});
  const writeMs = Math.round(performance.now() - started);
  let gaveUp = false;
  const timer = setTimeout(() => {
    gaveUp = true;
    caller.close();
  }, 15_000);
  await caller.closed;
  clearTimeout(timer);
  const cutOff = !gaveUp;
  const answered = [...caller.acks.values()].filter(([error]) => error === null).length;
  console.log(
    JSON.stringify({
      sent,
      writeMs,
      answered,
      refused: caller.errorsWithCode(429).length,
      cutOff,
      acks: caller.acks.size,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
