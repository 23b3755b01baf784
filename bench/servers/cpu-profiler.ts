import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

/**
 * A CPU profile of the measured window only (from the harness's `profile-start` to shutdown),
 * so start-up and warm-up do not dilute it. Enabled by BENCH_PROFILE_DIR; the file is a
 * standard `.cpuprofile` (Chrome DevTools, speedscope).
 */
export class WindowProfiler {
  private session?: Session;

  constructor(
    private readonly dir = process.env.BENCH_PROFILE_DIR,
    private readonly label = process.env.BENCH_PROFILE_LABEL ?? 'server',
  ) {}

  start(): void {
    if (!this.dir || this.session) return;
    const session = new Session();
    session.connect();
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')),
    );
    this.session = session;
  }

  /** Writes the profile, if one is running; resolves either way. */
  finish(): Promise<void> {
    const session = this.session;
    if (!session || !this.dir) return Promise.resolve();
    this.session = undefined;
    return new Promise((resolve) => {
      session.post('Profiler.stop', (error, result) => {
        if (!error)
          writeFileSync(path.join(this.dir!, `${this.label}.${Date.now()}.cpuprofile`), JSON.stringify(result.profile));
        session.disconnect();
        resolve();
      });
    });
  }
}
