import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Double, EJSON, Int32 } from 'bson';
import type { SelectedCase, UnifiedFile } from './unified-types';

const PROJECT_ROOT = path.resolve(__dirname, '../../..');

/** The shared conformance folder, read in place (never copied into the project). */
export function conformanceDir(): string {
  return process.env.CONFORMANCE_DIR
    ? path.resolve(process.env.CONFORMANCE_DIR)
    : path.resolve(PROJECT_ROOT, '../shared/conformance/mongodb-crud');
}

/** Why the suite cannot run here, or undefined when the folder is usable. */
export function missingReason(dir: string): string | undefined {
  if (!existsSync(path.join(dir, 'subset.json'))) return `no subset.json in ${dir}`;
  if (!existsSync(path.join(dir, 'tests'))) return `no tests/ folder in ${dir}`;
  return undefined;
}

/**
 * Canonical EJSON keeps int32/int64/double distinct; Int32 and fractional Doubles become
 * plain numbers again because the driver's option handling expects `typeof x === 'number'`
 * and serialises them to the same BSON types anyway. Integral Doubles and Longs stay
 * wrapped so they keep their BSON type on the wire.
 */
export function normalizeParsed(value: unknown): unknown {
  if (value instanceof Int32) return value.value;
  if (value instanceof Double) return Number.isInteger(value.value) ? value : value.value;
  if (Array.isArray(value)) return value.map(normalizeParsed);
  if (value !== null && typeof value === 'object' && !('_bsontype' in value) && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = normalizeParsed(inner);
    return out;
  }
  return value;
}

export function parseUnifiedFile(text: string): UnifiedFile {
  const parsed = EJSON.deserialize(JSON.parse(text) as Record<string, unknown>, { relaxed: false });
  return normalizeParsed(parsed) as UnifiedFile;
}

interface SubsetEntry {
  file: string;
  test: string;
  features?: string[];
}

/** Every subset entry resolved to its test; unresolvable entries carry a loadError so they count as failures. */
export function loadSubsetCases(dir: string): SelectedCase[] {
  const subset = JSON.parse(readFileSync(path.join(dir, 'subset.json'), 'utf8')) as SubsetEntry[];
  const texts = new Map<string, string>();
  return subset.map(({ file, test, features = [] }) => {
    const base: SelectedCase = { file, description: test, features };
    // Parsed afresh per case: the driver adds _id to documents it inserts, so cases must not share objects.
    let unifiedFile: UnifiedFile;
    try {
      const text = texts.get(file) ?? readFileSync(path.join(dir, 'tests', file), 'utf8');
      texts.set(file, text);
      unifiedFile = parseUnifiedFile(text);
    } catch (error) {
      return { ...base, loadError: `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!/^1\./.test(unifiedFile.schemaVersion)) {
      return { ...base, loadError: `unsupported schemaVersion ${unifiedFile.schemaVersion}` };
    }
    const found = unifiedFile.tests.find((t) => t.description === test);
    if (!found) return { ...base, loadError: `no test "${test}" in ${file}` };
    return { ...base, unifiedFile, test: found };
  });
}
