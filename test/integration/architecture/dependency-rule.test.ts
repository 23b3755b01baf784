import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const depcruise = path.join(root, 'node_modules/.bin/depcruise');

function cruise(target: string) {
  const run = spawnSync(depcruise, [target, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('dependency rule (DESIGN.md section 2)', () => {
  it('holds for src/', () => {
    const { status, output } = cruise('src');
    expect(output).not.toMatch(/error /);
    expect(status).toBe(0);
  });

  it('catches each deliberate violation in a fixture tree', () => {
    const { status, output } = cruise('test/fixtures/dependency-rule/src');
    expect(status).not.toBe(0);
    expect(output).toMatch(/adapters-never-import-each-other/);
    expect(output).toMatch(/domain-is-pure/);
    expect(output).toMatch(/browser-safe-layers-use-no-node-builtins/);
    expect(output).toMatch(/examples-import-ports-domain-and-client/);
    expect(output).toMatch(/examples-mounted-by-composition-only/);
    expect(output).toMatch(/embedded-mongo-base-imports-nothing-of-ours/);
    expect(output).toMatch(/embedded-mongo-engine-below-commands/);
  });
});
