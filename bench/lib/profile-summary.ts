import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

const PROJECT_ROOT = path.resolve(__dirname, '../..');

/** Where a frame's time belongs: a project source file, a package, Node internals or V8. */
function locate(frame: CallFrame, maps: Map<string, SourceMap | null>): { file: string; name: string } {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return { file: name.startsWith('(') ? name : '(native)', name };
  if (frame.url.startsWith('node:')) return { file: frame.url, name };
  const file = frame.url.startsWith('file:') ? fileURLToPath(frame.url) : frame.url;
  const packageAt = file.lastIndexOf('node_modules/');
  if (packageAt !== -1) {
    const rest = file.slice(packageAt + 'node_modules/'.length).split('/');
    return { file: `npm:${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`, name };
  }
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
    } catch {
      maps.set(file, null);
    }
  }
  const entry = maps.get(file)?.findEntry(frame.lineNumber, frame.columnNumber) as
    { originalSource?: string; originalLine?: number } | undefined;
  if (!entry?.originalSource) return { file: path.relative(PROJECT_ROOT, file), name };
  const source = entry.originalSource.startsWith('file:')
    ? fileURLToPath(entry.originalSource)
    : path.resolve(path.dirname(file), entry.originalSource);
  return { file: path.relative(PROJECT_ROOT, source), name: `${name}:${(entry.originalLine ?? 0) + 1}` };
}

/**
 * Self time of a `--cpu-prof` profile by source file and by function, mapped back to the
 * TypeScript sources through the bundle's source map. Idle time is left out of the percentages.
 */
export function summarizeProfile(profileFile: string, top = 25): string {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfByNode = new Map<number, number>();
  profile.samples.forEach((id, i) => selfByNode.set(id, (selfByNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  const maps = new Map<string, SourceMap | null>();
  const label = (id: number) => {
    const { file, name } = locate(frames.get(id)!, maps);
    return { file, key: `${name}  [${file}]` };
  };
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  // Time spent in packages, keyed by the first project frame that called into them: that is the
  // framework code to look at when a library dominates.
  const byProjectCaller = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of selfByNode) {
    const { file, key } = label(id);
    if (file === '(idle)') continue;
    busy += micros;
    byFile.set(file, (byFile.get(file) ?? 0) + micros);
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    if (file.startsWith('npm:')) {
      let caller = parents.get(id);
      while (caller !== undefined && !label(caller).file.startsWith('src/')) caller = parents.get(caller);
      if (caller !== undefined) {
        const entry = `${file} <- ${label(caller).key}`;
        byProjectCaller.set(entry, (byProjectCaller.get(entry) ?? 0) + micros);
      }
    }
  }
  const table = (entries: Map<string, number>, count = top) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, micros]) => `  ${((micros / busy) * 100).toFixed(1).padStart(5)} %  ${key}`);
  return [
    `${path.basename(profileFile)}: ${(busy / 1000).toFixed(0)} ms busy`,
    ' self time by file:',
    ...table(byFile),
    ' self time by function:',
    ...table(byFunction),
    ' package time by the project function that called into it:',
    ...table(byProjectCaller, 12),
  ].join('\n');
}
