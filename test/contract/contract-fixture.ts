import type { ContractService, ContractServiceOptions, ContractTarget } from './contract-types';

/** A valid ObjectId hex that no adapter ever generates here, and an integer: both must be "not found". */
export const MISSING_IDS: ReadonlyArray<string | number> = ['568225fbfe21222432e836ff', 123456789];

export type Person = { name: string; age: number; group?: string; [key: string]: unknown };
export type StoredPerson = Person & Record<string, any>;

/** What a `describe` block works with; filled in `beforeEach`, so read it inside tests only. */
export interface Fixture {
  service: ContractService;
  /** The id field: `options.id`, else the adapter's own (`service.id`, or detected from a record). */
  idField: string;
  /** The seeded records, by name, as `create` returned them. */
  seeded: Record<string, StoredPerson>;
  idOf(record: StoredPerson): any;
}

/**
 * Registers `beforeEach`/`afterEach` that build a fresh service with `options`, create `seed`
 * one by one (so no `multi` is needed), and close the service afterwards.
 */
export function useService(
  target: ContractTarget,
  options: ContractServiceOptions,
  seed: readonly Person[] = [],
): Fixture {
  let close: (() => Promise<void>) | undefined;
  let detected: string | undefined;
  const fixture: Fixture = {
    service: undefined as unknown as ContractService,
    seeded: {},
    get idField(): string {
      if (options.id) return options.id;
      const own = (fixture.service as { id?: unknown } | undefined)?.id;
      if (typeof own === 'string') return own;
      if (detected) return detected;
      throw new Error('idField is unknown until a record exists');
    },
    idOf(record: StoredPerson) {
      if (!options.id && !detected && typeof (fixture.service as { id?: unknown }).id !== 'string') {
        detected = '_id' in record ? '_id' : 'id';
      }
      return record[fixture.idField];
    },
  };

  beforeEach(async () => {
    detected = undefined;
    const built = await target.create(options);
    fixture.service = built.service;
    close = built.close;
    fixture.seeded = {};
    for (const person of seed) {
      const created = (await fixture.service.create({ ...person })) as StoredPerson;
      fixture.idOf(created);
      fixture.seeded[person.name] = created;
    }
  });

  afterEach(async () => {
    const closing = close;
    close = undefined;
    if (closing) await closing();
  });

  return fixture;
}

/** Rejects with a service error of this name and code (and message, when given). */
export async function expectServiceError(
  call: Promise<unknown>,
  name: string,
  code: number,
  message?: string | RegExp,
): Promise<any> {
  const error = await call.then(
    (value) => ({ resolved: value }),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  expect({ name: (error as any).name, code: (error as any).code }).toEqual({ name, code });
  if (message !== undefined) expect((error as Error).message).toMatch(message);
  return error;
}

export function names(records: readonly StoredPerson[]): string[] {
  return records.map((record) => record.name);
}

export function sortedNames(records: readonly StoredPerson[]): string[] {
  return names(records).sort();
}

/** Ids differ in type between adapters (numbers, ObjectIds, strings over HTTP); compare them as strings. */
export function sameId(a: unknown, b: unknown): boolean {
  return String(a) === String(b);
}

/** A find result as an array, whether the service paginates or not. */
export function asArray(result: any): StoredPerson[] {
  return Array.isArray(result) ? result : result.data;
}
