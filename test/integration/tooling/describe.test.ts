import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_STAGES } from '../../../src/application/lifecycle/service-stages';

const root = path.resolve(__dirname, '../../..');

function describeService(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', 'scripts/describe.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, STORE: 'memory', ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The rows of one method's table: stage name, then the rest of the line. */
function tableOf(stdout: string, method: string): { stage: string; text: string }[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${method} (`));
  const rows: { stage: string; text: string }[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('  ')) break;
    const [, stage, text] = /^ {2}(\S+(?: hooks)?)\s+(.*)$/.exec(line) ?? [];
    rows.push({ stage, text });
  }
  return rows;
}

describe('npm run describe', () => {
  it('lists every stage of GET /messages/:id in order, with files that exist and what the definition put there', () => {
    const run = describeService(['messages', '--method', 'get']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const rows = tableOf(run.stdout, 'get');
    expect(rows.map((row) => row.stage)).toEqual([
      'decode',
      ...SERVICE_STAGES.map((stage) => stage.name),
      'publish',
      'encode',
    ]);
    const text = (stage: string) => rows.find((row) => row.stage === stage)!.text;
    expect(text('authenticate')).toMatch(/^jwt /);
    expect(text('validate')).toMatch(/^query MessagesQueryDto /);
    expect(text('relations')).toMatch(/^user \(users by userId\) /);
    expect(text('scope')).toMatch(/^policy /);
    expect(text('store')).toBe('MemoryService.get');
    const files = run.stdout.match(/src\/[\w/.-]+\.ts/g) ?? [];
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(existsSync(path.join(root, file))).toBe(true);
  });

  it("shows an internal call's skipped stages and a write's stamps and event", () => {
    const run = describeService(['messages', '--method', 'create', '--internal']);
    expect(run.status).toBe(0);
    const rows = tableOf(run.stdout, 'create');
    const text = (stage: string) => rows.find((row) => row.stage === stage)!.text;
    expect(rows.map((row) => row.stage)).not.toContain('decode');
    for (const stage of ['idempotency', 'view', 'scope']) expect(text(stage)).toMatch(/^skipped: internal calls/);
    expect(text('store')).toMatch(/^owner userId; before: stampNewMessage; then MemoryService\.create /);
    expect(text('publish')).toMatch(/^the event of a write /);
  });

  it("shows a binding to another server skipping the storing server's stages", () => {
    const run = describeService(['messages', '--method', 'get'], { MESSAGES_REMOTE_URL: 'http://127.0.0.1:9' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('messages: stored on another server');
    const rows = tableOf(run.stdout, 'get');
    for (const stage of SERVICE_STAGES.filter((candidate) => candidate.runsOn === 'storing server'))
      if (stage.name !== 'store')
        expect(rows.find((row) => row.stage === stage.name)!.text).toBe('skipped: the storing server runs it');
    expect(rows.find((row) => row.stage === 'authenticate')!.text).toMatch(/^jwt /);
  });

  it('describes a service the composition registers itself, with the hooks it runs', () => {
    const run = describeService(['authentication', '--method', 'create']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('authentication: AuthenticationService, registered by the composition itself');
    const rows = tableOf(run.stdout, 'create');
    expect(rows.find((row) => row.stage === 'store')!.text).toBe('AuthenticationService.create');
  });

  it('refuses an unknown service with one line naming the services', () => {
    const run = describeService(['nothing-here']);
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toMatch(/^describe: usage: npm run describe -- <service> .*services: .*messages/);
  });
});
