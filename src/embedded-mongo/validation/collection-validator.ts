import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import type { Collation } from '../query/collation';
import { compileFilter } from '../query/match';
import { compileJsonSchema } from './json-schema';
import { consideredType } from './schema-types';

/** A compiled collection validator: undefined when the document passes, else mongod's `errInfo.details`. */
export type ValidatorCheck = (doc: Document) => Document | undefined;

/** Operators mongod refuses in a validator (they need an index or run JavaScript). */
const FORBIDDEN_OPERATORS = new Set(['$near', '$nearSphere', '$text', '$where']);

/**
 * Compiles a `validator` (query operators and `$jsonSchema`, combined with `$and` / `$or` / `$nor`)
 * so that a bad validator fails at createCollection / collMod. Matching is the server's own query
 * matcher under the collection's default collation; failures are explained clause by clause.
 */
export function compileValidator(validator: Document, collation?: Collation): ValidatorCheck {
  assertAllowedOperators(validator, 0);
  const check = compileClauses(validator, collation);
  return (doc) => check(doc);
}

type Clause = (doc: Document) => Document | undefined;

function compileClauses(filter: Document, collation: Collation | undefined): Clause {
  const clauses = Object.entries(filter).map(([key, value]) => compileClause(key, value, collation));
  if (clauses.length === 1) return clauses[0];
  return (doc) => {
    const clausesNotSatisfied = failures(clauses, doc);
    return clausesNotSatisfied.length > 0 ? { operatorName: '$and', clausesNotSatisfied } : undefined;
  };
}

function compileClause(key: string, value: unknown, collation: Collation | undefined): Clause {
  if (key === '$jsonSchema') {
    const schema = compileJsonSchema(value);
    const title = (value as Document).title;
    return (doc) => {
      const schemaRulesNotSatisfied = schema(doc);
      if (schemaRulesNotSatisfied.length === 0) return undefined;
      return { operatorName: '$jsonSchema', ...(title !== undefined ? { title } : {}), schemaRulesNotSatisfied };
    };
  }
  if (key === '$and' || key === '$or' || key === '$nor') {
    if (!Array.isArray(value) || value.length === 0)
      throw new CommandError('BadValue', `${key} argument must be a non-empty array`);
    const branches = value.map((branch) => {
      if (branch === null || typeof branch !== 'object' || Array.isArray(branch))
        throw new CommandError('BadValue', `${key} argument's entries must be objects`);
      return compileClauses(branch as Document, collation);
    });
    return logicalClause(key, branches);
  }
  const matches = compileFilter({ [key]: value }, { collation });
  return (doc) => (matches(doc) ? undefined : explainFailure(key, value, doc));
}

function logicalClause(operator: '$and' | '$or' | '$nor', branches: Clause[]): Clause {
  return (doc) => {
    if (operator === '$nor') {
      const clausesSatisfied = branches.flatMap((branch, index) =>
        branch(doc) === undefined ? [{ index, details: { operatorName: '$nor', reason: 'clause matched' } }] : [],
      );
      return clausesSatisfied.length > 0 ? { operatorName: '$nor', clausesSatisfied } : undefined;
    }
    const clausesNotSatisfied = failures(branches, doc);
    const fails = operator === '$and' ? clausesNotSatisfied.length > 0 : clausesNotSatisfied.length === branches.length;
    return fails ? { operatorName: operator, clausesNotSatisfied } : undefined;
  };
}

function failures(clauses: Clause[], doc: Document): Document[] {
  return clauses.flatMap((clause, index) => {
    const details = clause(doc);
    return details ? [{ index, details }] : [];
  });
}

const COMPARISONS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);

/** mongod's explanation of one failed top-level clause (`{ qty: { $gt: 0 } }`, `{ $expr: ... }`). */
function explainFailure(key: string, condition: unknown, doc: Document): Document {
  const specifiedAs = { [key]: condition };
  if (key === '$expr')
    return { operatorName: '$expr', specifiedAs, reason: 'expression did not match', expressionResult: false };
  const operators = isOperatorObject(condition) ? Object.keys(condition as Document) : ['$eq'];
  const operatorName = operators.length === 1 ? operators[0] : '$and';
  const value = valueAt(doc, key);
  if (value === undefined && operatorName !== '$exists')
    return { operatorName, specifiedAs, reason: 'field was missing' };
  const considered = { consideredValue: value };
  if (COMPARISONS.has(operatorName)) return { operatorName, specifiedAs, reason: 'comparison failed', ...considered };
  switch (operatorName) {
    case '$in':
      return { operatorName, specifiedAs, reason: 'no matching value found in array', ...considered };
    case '$nin':
      return { operatorName, specifiedAs, reason: 'matching value found in array', ...considered };
    case '$exists':
      return { operatorName, specifiedAs, reason: value === undefined ? 'path does not exist' : 'path does exist' };
    case '$type':
      return {
        operatorName,
        specifiedAs,
        reason: 'type did not match',
        ...considered,
        consideredType: consideredType(value),
      };
    case '$regex':
      return { operatorName, specifiedAs, reason: 'regular expression did not match', ...considered };
    default:
      return { operatorName, specifiedAs, reason: 'expression did not match', ...considered };
  }
}

function isOperatorObject(condition: unknown): boolean {
  if (
    condition === null ||
    typeof condition !== 'object' ||
    Array.isArray(condition) ||
    condition.constructor !== Object
  )
    return false;
  const keys = Object.keys(condition);
  return keys.length > 0 && keys.every((name) => name.startsWith('$'));
}

/** The value at a dotted path, without descending into arrays (what `consideredValue` reports). */
function valueAt(doc: Document, path: string): unknown {
  let current: unknown = doc;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Document)[part];
  }
  return current;
}

function assertAllowedOperators(value: unknown, depth: number): void {
  if (depth > 64 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((item) => assertAllowedOperators(item, depth + 1));
    return;
  }
  if (value.constructor !== Object) return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$jsonSchema') continue;
    if (FORBIDDEN_OPERATORS.has(key))
      throw new CommandError('BadValue', `${key} is not allowed in collection validators`);
    assertAllowedOperators(inner, depth + 1);
  }
}
