import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { isBsonNumber, numberValue } from '../query/bson-numbers';
import { parseCollation } from '../query/collation';
import { validatorOf } from '../validation/write-checks';

const VALIDATION_LEVELS = ['off', 'strict', 'moderate'];
const VALIDATION_ACTIONS = ['error', 'warn'];
/** mongod's bucket span for each timeseries granularity. */
const BUCKET_SPAN_SECONDS: Record<string, number> = { seconds: 3600, minutes: 86400, hours: 2592000 };

/**
 * Checks the options of `create` as mongod does and returns them as mongod stores and lists them
 * (a timeseries spec gains its granularity and bucket span). A bad validator fails here, not at
 * the first write.
 */
export function parseCreateOptions(command: string, options: Document): Document {
  const parsed: Document = { ...options };
  if (options.capped === true) {
    if (options.size === undefined)
      throw new CommandError('InvalidOptions', "the 'size' field is required when 'capped' is true");
    if (!isBsonNumber(options.size) || numberValue(options.size) < 0)
      throw new CommandError('BadValue', "the 'size' field must be a non-negative number");
  }
  if (options.timeseries !== undefined) parsed.timeseries = parseTimeseries(command, options.timeseries);
  else if (options.expireAfterSeconds !== undefined && options.clusteredIndex === undefined) {
    throw new CommandError(
      'InvalidOptions',
      "'expireAfterSeconds' option is only supported on time-series collections or when the collection is clustered",
    );
  }
  parseCollation(options.collation);
  assertValidationSettings(command, parsed);
  return parsed;
}

/** The validator, validationLevel and validationAction of `create` or `collMod`. */
export function assertValidationSettings(command: string, options: Document): void {
  assertEnumeration(command, 'validationLevel', options.validationLevel, VALIDATION_LEVELS);
  assertEnumeration(command, 'validationAction', options.validationAction, VALIDATION_ACTIONS);
  if (options.validator === undefined) return;
  const validator = options.validator;
  if (validator === null || typeof validator !== 'object' || Array.isArray(validator)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${command}.validator' is the wrong type, expected type 'object'`,
    );
  }
  if (options.viewOn !== undefined)
    throw new CommandError('InvalidOptions', 'Document validators are not allowed on views.');
  validatorOf(validator as Document, options);
}

function assertEnumeration(command: string, field: string, value: unknown, allowed: readonly string[]): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${String(value)}' for field '${command}.${field}' is not a valid value.`,
    );
  }
}

function parseTimeseries(command: string, raw: unknown): Document {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${command}.timeseries' is the wrong type, expected type 'object'`,
    );
  }
  const spec = raw as Document;
  if (spec.timeField === undefined)
    throw new CommandError(
      'Location40414',
      `BSON field '${command}.timeseries.timeField' is missing but a required field`,
    );
  if (typeof spec.timeField !== 'string')
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${command}.timeseries.timeField' is the wrong type, expected type 'string'`,
    );
  if (spec.metaField !== undefined && typeof spec.metaField !== 'string') {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${command}.timeseries.metaField' is the wrong type, expected type 'string'`,
    );
  }
  if (spec.metaField === spec.timeField)
    throw new CommandError('InvalidOptions', "The 'metaField' and 'timeField' must be different");
  const granularity = spec.granularity ?? 'seconds';
  if (typeof granularity !== 'string' || !(granularity in BUCKET_SPAN_SECONDS)) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${String(granularity)}' for field '${command}.timeseries.granularity' is not a valid value.`,
    );
  }
  return {
    timeField: spec.timeField,
    ...(spec.metaField !== undefined ? { metaField: spec.metaField } : {}),
    granularity,
    bucketMaxSpanSeconds: BUCKET_SPAN_SECONDS[granularity],
  };
}
