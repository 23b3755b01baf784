import type { Document } from 'bson';
import { parseCollation, type Collation } from '../query/collation';
import { evaluateLet } from '../query/evaluate-let';
import { CommandError } from '../base/command-error';

/** One entry of `updates` / `deletes`, validated. */
export interface WriteStatement {
  readonly filter: Document;
  readonly update: unknown;
  readonly multi: boolean;
  readonly upsert: boolean;
  readonly arrayFilters?: Document[];
  readonly collation?: Collation;
  readonly variables?: Document;
}

const STATEMENT_FIELDS = new Set([
  'q',
  'u',
  'multi',
  'upsert',
  'arrayFilters',
  'collation',
  'hint',
  'c',
  'limit',
  'upsertSupplied',
]);

/**
 * Unknown statement fields fail the whole command before anything is written, as command
 * parsing does in mongod. 7.0 does not know update `sort` (added in 8.0), so it lands here too.
 */
export function assertKnownStatementFields(statements: readonly unknown[], kind: 'update' | 'delete'): void {
  for (const raw of statements) {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new CommandError('TypeMismatch', `each ${kind} must be an object`);
    for (const field of Object.keys(raw)) {
      if (!STATEMENT_FIELDS.has(field)) {
        throw new CommandError('Location40415', `BSON field '${kind}.${kind}s.${field}' is an unknown field.`);
      }
    }
  }
}

/** `defaultCollation`: the collection's, applied when the statement names none (see command-collation.ts). */
export function parseWriteStatement(
  raw: unknown,
  kind: 'update' | 'delete',
  commandLet: unknown,
  defaultCollation?: unknown,
): WriteStatement {
  const statement = raw as Document;
  const filter = statement.q;
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) {
    throw new CommandError('TypeMismatch', `BSON field '${kind}.${kind}s.q' is missing or not an object`);
  }
  if (statement.arrayFilters !== undefined && !Array.isArray(statement.arrayFilters)) {
    throw new CommandError('TypeMismatch', "'arrayFilters' must be an array");
  }
  const multi = kind === 'update' ? statement.multi === true : statement.limit !== 1;
  return {
    filter: filter as Document,
    update: statement.u,
    multi,
    upsert: statement.upsert === true,
    arrayFilters: statement.arrayFilters as Document[] | undefined,
    collation: parseCollation(statement.collation ?? defaultCollation),
    variables: evaluateLet(commandLet, statement.c),
  };
}
