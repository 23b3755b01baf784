import type { Document } from 'bson';
import { Aggregator, update as mingoUpdate } from 'mingo';
import { CommandError } from '../base/command-error';
import { isBsonNumber } from '../query/bson-numbers';
import { idFirst } from '../query/id-first';
import { mingoOptions } from '../query/mingo-options';
import { setOwnField } from '../query/own-field';
import { typedPipeline } from '../query/typed-pipeline';
import { cloneDocument } from '../storage/clone-document';
import { valueKey } from '../storage/value-key';
import { applyNumericSteps, takeNumericSteps } from './array-arithmetic';
import { assertNoConflictingPaths, assertUpdateTargets } from './check-update-paths';
import { applyDocumentPulls, takeDocumentPulls } from './document-pull';
import { takeTopLevelDollarFields } from './dollar-prefixed-fields';
import { expandPositionalPaths, isPositionalPath } from './expand-positional';
import { trySimpleUpdate } from './simple-update';

const UPDATE_OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$push',
  '$addToSet',
  '$pull',
  '$pullAll',
  '$pop',
  '$currentDate',
  '$bit',
  '$setOnInsert',
]);
const PIPELINE_UPDATE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

export interface UpdateSettings {
  readonly filter: Document;
  readonly arrayFilters?: Document[];
  readonly variables?: Document;
  /** The target is an upsert seed: `$setOnInsert` applies and `_id` may be chosen freely. */
  readonly inserting: boolean;
}

export interface UpdateOutcome {
  readonly doc: Document;
  readonly modified: boolean;
}

/** Applies an operator, replacement or pipeline update to a copy of `original`. */
export function applyUpdate(original: Document, update: unknown, settings: UpdateSettings): UpdateOutcome {
  let next: Document;
  if (Array.isArray(update)) next = applyPipeline(original, update, settings);
  else if (isOperatorUpdate(update)) next = applyOperators(original, update as Document, settings);
  else next = applyReplacement(original, update);
  if (!settings.inserting || '_id' in original) assertIdUnchanged(original, next);
  next = idFirst(next);
  return { doc: next, modified: valueKey(next) !== valueKey(original) };
}

/** `$inc` and `$mul` take numbers only (mingo would otherwise leave the field alone or make NaN). */
function assertNumericArguments(operator: '$inc' | '$mul', fields: Document): void {
  for (const [path, value] of Object.entries(fields)) {
    if (!isBsonNumber(value)) {
      const verb = operator === '$inc' ? 'increment' : 'multiply';
      throw new CommandError(
        'TypeMismatch',
        `Cannot ${verb} with non-numeric argument: {${path}: ${JSON.stringify(value)}}`,
      );
    }
  }
}

/** An update document whose first key starts with `$` is an operator update. */
export function isOperatorUpdate(update: unknown): boolean {
  if (update === null || typeof update !== 'object' || Array.isArray(update)) return false;
  const first = Object.keys(update)[0];
  return first !== undefined && first.startsWith('$');
}

function applyOperators(original: Document, update: Document, settings: UpdateSettings): Document {
  const modifier: Document = {};
  let onInsert: Document | undefined;
  for (const [operator, fields] of Object.entries(update)) {
    if (!UPDATE_OPERATORS.has(operator)) {
      throw new CommandError(
        'FailedToParse',
        `Unknown modifier: ${operator}. Expected a valid update modifier or pipeline-style update specified as an ` +
          `array`,
      );
    }
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
      throw new CommandError(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${typeof fields} instead.`,
      );
    }
    if (operator === '$inc' || operator === '$mul') assertNumericArguments(operator, fields as Document);
    if (operator === '$setOnInsert') onInsert = fields as Document;
    else modifier[operator] = fields;
  }
  assertNoConflictingPaths(update);
  // mingo has no $setOnInsert: on insert it is a $set applied alongside the others.
  if (onInsert && settings.inserting) modifier.$set = { ...(modifier.$set as Document | undefined), ...onInsert };
  const idAssignment = takeIdAssignment(modifier);
  const next = cloneDocument(original);
  if (idAssignment.present) {
    // mingo refuses any write to `_id`; mongod allows setting it on insert or to its current value.
    if (settings.inserting && !('_id' in original)) next._id = idAssignment.value;
    else if (valueKey(idAssignment.value) !== valueKey(original._id)) throw immutableIdError();
  }
  for (const [field, value] of takeTopLevelDollarFields(modifier, settings.inserting))
    setOwnField(next, field, cloneDocument(value));
  // Plain object paths that can all be created: nothing below has anything to refuse or resolve.
  if (Object.keys(modifier).length === 0 || trySimpleUpdate(next, modifier)) return next;
  const concrete = hasPositionalPath(modifier) ? expandPositionalPaths(next, modifier, settings) : modifier;
  assertUpdateTargets(next, concrete);
  applyDocumentPulls(next, takeDocumentPulls(concrete));
  return applyConcreteOperators(next, concrete, settings);
}

/** Applies a modifier whose paths name no positional operator any more. */
function applyConcreteOperators(next: Document, modifier: Document, settings: UpdateSettings): Document {
  if (Object.keys(modifier).length === 0 || trySimpleUpdate(next, modifier)) return next;
  // Arithmetic through arrays keeps BSON widths here; mingo gets whatever else there is.
  const numericSteps = takeNumericSteps(modifier);
  if (numericSteps.length > 0) {
    applyNumericSteps(next, numericSteps);
    if (Object.keys(modifier).length === 0 || trySimpleUpdate(next, modifier)) return next;
  }
  mingoUpdate(next, modifier, undefined, undefined, {
    cloneMode: 'copy',
    queryOptions: mingoOptions({ variables: settings.variables }, modifier),
  });
  return next;
}

/** Removes `$set: { _id }` from the modifier; any other operator on `_id` is an immutable-field error. */
function takeIdAssignment(modifier: Document): { present: boolean; value?: unknown } {
  let assignment: { present: boolean; value?: unknown } = { present: false };
  for (const [operator, fields] of Object.entries(modifier)) {
    for (const path of Object.keys(fields as Document)) {
      if (path !== '_id' && !path.startsWith('_id.')) continue;
      if (operator !== '$set' || path !== '_id') throw immutableIdError();
      assignment = { present: true, value: (fields as Document)._id };
      const rest = { ...(fields as Document) };
      delete rest._id;
      if (Object.keys(rest).length > 0) modifier[operator] = rest;
      else delete modifier[operator];
    }
  }
  return assignment;
}

function hasPositionalPath(modifier: Document): boolean {
  return Object.values(modifier).some((fields) => Object.keys(fields as Document).some(isPositionalPath));
}

function applyReplacement(original: Document, replacement: unknown): Document {
  if (replacement === null || typeof replacement !== 'object')
    throw new CommandError('FailedToParse', 'update must be an object or an array');
  const doc = replacement as Document;
  const id = '_id' in doc ? doc._id : original._id;
  return id === undefined ? { ...doc } : { ...doc, _id: id };
}

function applyPipeline(original: Document, pipeline: unknown[], settings: UpdateSettings): Document {
  for (const stage of pipeline) {
    const name = stage && typeof stage === 'object' ? Object.keys(stage)[0] : undefined;
    if (!name || !PIPELINE_UPDATE_STAGES.has(name)) {
      throw new CommandError('BadValue', `${String(name)} is not allowed to be used within an update`);
    }
  }
  const stages = typedPipeline(pipeline as Document[], false).stages;
  const [result] = new Aggregator(stages, mingoOptions({ variables: settings.variables }, stages)).run<Document>([
    cloneDocument(original),
  ]);
  // A pipeline may project `_id` away; the stored document keeps it.
  return '_id' in result || original._id === undefined ? result : { _id: original._id, ...result };
}

function assertIdUnchanged(before: Document, after: Document): void {
  if (valueKey(before._id) !== valueKey(after._id)) throw immutableIdError();
}

function immutableIdError(): CommandError {
  return new CommandError(
    'ImmutableField',
    "Performing an update on the path '_id' would modify the immutable field '_id'",
  );
}
