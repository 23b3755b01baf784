import { EJSON } from 'bson';

/**
 * The unified test format's "Evaluating Matches" rules: root-level documents may carry extra
 * fields, nested ones may not, arrays must have the same length, numbers compare by value
 * across int32/int64/double, and `{ $$op: ... }` documents are assertions, not values.
 */

/** Entity lookups for `$$matchesEntity` and `$$sessionLsid`. */
export interface MatchEntities {
  entity(id: string): unknown;
  sessionLsid(id: string): unknown;
}

export interface MatchOptions {
  /** The actual value is a root-level document: extra fields allowed (default true). */
  isRoot?: boolean;
  /** The actual value is an array of root-level documents (a cursor's results). */
  rootElements?: boolean;
  entities?: MatchEntities;
}

interface State {
  entities?: MatchEntities;
  exact: boolean;
}

type Mismatch = string | undefined;

const MAX_SHOWN = 160;

export function preview(value: unknown): string {
  if (value === undefined) return 'undefined (absent)';
  let text: string;
  try {
    text = EJSON.stringify(value, { relaxed: true });
  } catch {
    text = String(value);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

function bsontype(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return typeof tag === 'string' ? tag : undefined;
}

export function isDocument(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    bsontype(value) === undefined &&
    !(value instanceof Date) &&
    !(value instanceof RegExp) &&
    !(value instanceof Uint8Array)
  );
}

function specialOperator(value: unknown): string | undefined {
  if (!isDocument(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0].startsWith('$$') ? keys[0] : undefined;
}

/** Numeric value of int32/int64/double in any of their JS forms; Decimal128 is deliberately excluded. */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  switch (bsontype(value)) {
    case 'Int32':
    case 'Double':
      return (value as { value: number }).value;
    case 'Long':
      return (value as { toNumber(): number }).toNumber();
    default:
      return undefined;
  }
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * `$type` names the actual value answers to. The driver promotes int32/int64/double to JS
 * numbers, so a promoted integer answers to all three (the BSON type is gone by then).
 */
export function bsonTypeNames(value: unknown): string[] {
  if (value === undefined) return [];
  if (value === null) return ['null'];
  if (typeof value === 'string') return ['string'];
  if (typeof value === 'boolean') return ['bool'];
  if (typeof value === 'bigint') return ['long', 'number'];
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return ['double', 'number'];
    return value >= INT32_MIN && value <= INT32_MAX
      ? ['int', 'long', 'double', 'number']
      : ['long', 'double', 'number'];
  }
  if (Array.isArray(value)) return ['array'];
  if (value instanceof Date) return ['date'];
  if (value instanceof RegExp) return ['regex'];
  if (value instanceof Uint8Array) return ['binData'];
  switch (bsontype(value)) {
    case 'Int32':
      return ['int', 'number'];
    case 'Long':
      return ['long', 'number'];
    case 'Double':
      return ['double', 'number'];
    case 'Decimal128':
      return ['decimal', 'number'];
    case 'ObjectId':
      return ['objectId'];
    case 'Binary':
      return ['binData'];
    case 'BSONRegExp':
      return ['regex'];
    case 'Timestamp':
      return ['timestamp'];
    case 'MinKey':
      return ['minKey'];
    case 'MaxKey':
      return ['maxKey'];
    case 'BSONSymbol':
      return ['symbol'];
    case 'DBRef':
      return ['object', 'dbPointer'];
    case 'Code':
      return (value as { scope?: unknown }).scope ? ['javascriptWithScope'] : ['javascript'];
    case undefined:
      return ['object'];
    default:
      return [];
  }
}

function bsonValuesEqual(expected: object, actual: object): boolean {
  if (bsontype(expected) !== bsontype(actual)) return false;
  const equals = (expected as { equals?: (other: unknown) => boolean }).equals;
  if (typeof equals === 'function') return equals.call(expected, actual);
  return EJSON.stringify(expected, { relaxed: false }) === EJSON.stringify(actual, { relaxed: false });
}

/**
 * The BSON number type a value was (or will be) stored as: JS numbers are written as int32
 * when integral and in range, else double; wrappers keep their own type.
 */
function numberKind(value: unknown): 'int' | 'long' | 'double' | undefined {
  if (typeof value === 'number')
    return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX ? 'int' : 'double';
  if (typeof value === 'bigint') return 'long';
  const tag = bsontype(value);
  return tag === 'Int32' ? 'int' : tag === 'Long' ? 'long' : tag === 'Double' ? 'double' : undefined;
}

function scalarsEqual(expected: unknown, actual: unknown, state: State): boolean {
  if (state.exact && numberKind(expected) !== numberKind(actual)) return false;
  const e = numeric(expected);
  const a = numeric(actual);
  if (e !== undefined || a !== undefined) return e !== undefined && a !== undefined && e === a;
  if (expected instanceof Date) return actual instanceof Date && expected.getTime() === actual.getTime();
  if (expected instanceof RegExp) {
    return actual instanceof RegExp && expected.source === actual.source && expected.flags === actual.flags;
  }
  if (expected instanceof Uint8Array) {
    return actual instanceof Uint8Array && Buffer.compare(Buffer.from(expected), Buffer.from(actual)) === 0;
  }
  if (bsontype(expected) !== undefined)
    return bsontype(actual) !== undefined && bsonValuesEqual(expected as object, actual as object);
  return Object.is(expected, actual);
}

function child(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`;
}

function matchOperator(
  op: string,
  arg: unknown,
  actual: unknown,
  path: string,
  isRoot: boolean,
  state: State,
): Mismatch {
  switch (op) {
    case '$$type': {
      const wanted = Array.isArray(arg) ? (arg as string[]) : [arg as string];
      const names = bsonTypeNames(actual);
      return wanted.some((name) => names.includes(name))
        ? undefined
        : `${path}: expected type ${wanted.join('|')}, got ${preview(actual)} (${names.join('|') || 'absent'})`;
    }
    case '$$unsetOrMatches':
      return actual === undefined ? undefined : matchValue(arg, actual, path, isRoot, state);
    case '$$exists':
      return `${path}: $$exists is only valid as a document field value`;
    case '$$matchesEntity': {
      if (!state.entities) return `${path}: $$matchesEntity needs an entity map`;
      return matchValue(state.entities.entity(String(arg)), actual, path, isRoot, state);
    }
    case '$$sessionLsid': {
      if (!state.entities) return `${path}: $$sessionLsid needs an entity map`;
      return matchValue(state.entities.sessionLsid(String(arg)), actual, path, false, state);
    }
    case '$$lte': {
      const limit = numeric(arg);
      const value = numeric(actual);
      if (limit === undefined) return `${path}: $$lte needs a number, got ${preview(arg)}`;
      return value !== undefined && value <= limit
        ? undefined
        : `${path}: expected <= ${limit}, got ${preview(actual)}`;
    }
    case '$$matchAsDocument': {
      if (typeof actual !== 'string')
        return `${path}: $$matchAsDocument needs an extended JSON string, got ${preview(actual)}`;
      let parsed: unknown;
      try {
        parsed = EJSON.parse(actual, { relaxed: false });
      } catch (error) {
        return `${path}: not extended JSON (${(error as Error).message})`;
      }
      return matchValue(arg, parsed, path, false, state);
    }
    case '$$matchAsRoot':
      return matchValue(arg, actual, path, true, state);
    case '$$matchesHexBytes': {
      const hex = String(arg).toLowerCase();
      if (!/^([0-9a-f]{2})*$/.test(hex)) throw new Error(`malformed $$matchesHexBytes: ${String(arg)}`);
      const bytes =
        actual instanceof Uint8Array
          ? Buffer.from(actual)
          : bsontype(actual) === 'Binary'
            ? Buffer.from((actual as { buffer: Uint8Array }).buffer)
            : undefined;
      return bytes && bytes.toString('hex') === hex
        ? undefined
        : `${path}: expected bytes ${hex}, got ${preview(actual)}`;
    }
    default:
      return `${path}: unsupported special operator ${op}`;
  }
}

function matchDocument(
  expected: Record<string, unknown>,
  actual: unknown,
  path: string,
  isRoot: boolean,
  state: State,
): Mismatch {
  if (!isDocument(actual)) return `${path}: expected a document, got ${preview(actual)}`;
  for (const [key, value] of Object.entries(expected)) {
    const actualValue = actual[key];
    const op = state.exact ? undefined : specialOperator(value);
    if (op === '$$exists') {
      const wanted = Boolean((value as Record<string, unknown>).$$exists);
      if (wanted !== (actualValue !== undefined)) {
        return `${child(path, key)}: expected ${wanted ? 'present' : 'absent'}, got ${preview(actualValue)}`;
      }
      continue;
    }
    if (op === undefined && actualValue === undefined)
      return `${child(path, key)}: missing (expected ${preview(value)})`;
    const mismatch = matchValue(value, actualValue, child(path, key), false, state);
    if (mismatch) return mismatch;
  }
  if (!isRoot) {
    // Drivers leave unset options as `undefined` in command objects; those are never sent.
    const extra = Object.keys(actual).filter((key) => actual[key] !== undefined && !(key in expected));
    if (extra.length > 0) return `${path}: unexpected field(s) ${extra.join(', ')} in ${preview(actual)}`;
  }
  return undefined;
}

function matchValue(expected: unknown, rawActual: unknown, path: string, isRoot: boolean, state: State): Mismatch {
  // The driver builds some command fields (e.g. `sort`) as Maps to keep key order; BSON writes them as documents.
  const actual = rawActual instanceof Map ? Object.fromEntries(rawActual) : rawActual;
  if (isDocument(expected)) {
    const op = state.exact ? undefined : specialOperator(expected);
    if (op) return matchOperator(op, expected[op], actual, path, isRoot, state);
    return matchDocument(expected, actual, path, isRoot, state);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${preview(actual)}`;
    if (actual.length !== expected.length) {
      return `${path}: expected ${expected.length} element(s), got ${actual.length}: ${preview(actual)}`;
    }
    for (let i = 0; i < expected.length; i += 1) {
      const mismatch = matchValue(expected[i], actual[i], child(path, i), false, state);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (actual === undefined) return `${path}: missing (expected ${preview(expected)})`;
  if (scalarsEqual(expected, actual, state)) return undefined;
  const kinds =
    state.exact && numberKind(expected) !== numberKind(actual)
      ? ` (${numberKind(expected)} vs ${numberKind(actual)})`
      : '';
  return `${path}: expected ${preview(expected)}, got ${preview(actual)}${kinds}`;
}

/** The first way `actual` fails to match `expected` under the unified rules, or undefined when it matches. */
export function findMismatch(expected: unknown, actual: unknown, options: MatchOptions = {}): string | undefined {
  const state: State = { entities: options.entities, exact: false };
  const isRoot = options.isRoot ?? true;
  if (options.rootElements && Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `$: expected an array, got ${preview(actual)}`;
    if (actual.length !== expected.length) {
      return `$: expected ${expected.length} document(s), got ${actual.length}: ${preview(actual)}`;
    }
    for (let i = 0; i < expected.length; i += 1) {
      const mismatch = matchValue(expected[i], actual[i], `$[${i}]`, true, state);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  return matchValue(expected, actual, '$', isRoot, state);
}

/**
 * Exact comparison for `outcome`: no operators, no extra fields anywhere, and numbers must keep
 * their BSON type (read the actual documents with `promoteValues: false`); only key order may differ.
 */
export function findExactMismatch(expected: unknown, actual: unknown): string | undefined {
  return matchValue(expected, actual, '$', false, { exact: true });
}

export function assertMatches(expected: unknown, actual: unknown, options?: MatchOptions): void {
  const mismatch = findMismatch(expected, actual, options);
  if (mismatch) throw new Error(mismatch);
}
