import { MongoServerError, type MongoClient } from 'mongodb';
import type { EntityMap, ObservedEvent } from './entities';
import { findExactMismatch, findMismatch, preview } from './matcher';
import { returnsCursorDocuments } from './operations';
import type {
  CollectionData,
  ExpectedError,
  ExpectedEvent,
  ExpectedEventsForClient,
  OperationDef,
} from './unified-types';

// Each check returns a failure message, or undefined when the expectation holds.

export function expectResult(op: OperationDef, result: unknown, entities: EntityMap): string | undefined {
  if (!('expectResult' in op)) return undefined;
  const mismatch = findMismatch(op.expectResult, result, {
    isRoot: true,
    rootElements: returnsCursorDocuments(op.name),
    entities,
  });
  return mismatch && `result ${mismatch}`;
}

interface DriverError {
  message?: string;
  code?: unknown;
  codeName?: unknown;
  errorResponse?: unknown;
  result?: unknown;
  hasErrorLabel?: (label: string) => boolean;
}

function errorSummary(error: unknown): string {
  if (!(error instanceof Error)) return preview(error);
  const { code, codeName } = error as DriverError;
  return (
    `${error.name}${code !== undefined ? ` ${String(code)}` : ''}` +
    `${codeName ? ` (${String(codeName)})` : ''}: ${error.message}`
  );
}

export function expectError(expected: ExpectedError, error: unknown, entities: EntityMap): string | undefined {
  const err = (error ?? {}) as DriverError;
  // Server errors (including bulk write and write concern errors) all derive from MongoServerError.
  const isServerError = error instanceof MongoServerError;
  const got = errorSummary(error);
  if (expected.isClientError === true && isServerError) return `expected a client-side error, got server error ${got}`;
  if (expected.isClientError === false && !isServerError) return `expected a server error, got client-side ${got}`;
  if (expected.errorCode !== undefined && err.code !== expected.errorCode) {
    return `expected error code ${expected.errorCode}, got ${got}`;
  }
  if (expected.errorCodeName !== undefined && err.codeName !== expected.errorCodeName) {
    return `expected error codeName ${expected.errorCodeName}, got ${got}`;
  }
  if (expected.errorContains !== undefined) {
    const message = String(err.message ?? '').toLowerCase();
    if (!message.includes(expected.errorContains.toLowerCase()))
      return `expected error containing "${expected.errorContains}", got ${got}`;
  }
  for (const label of expected.errorLabelsContain ?? []) {
    if (!err.hasErrorLabel?.(label)) return `expected error label ${label}, got ${got}`;
  }
  for (const label of expected.errorLabelsOmit ?? []) {
    if (err.hasErrorLabel?.(label)) return `unexpected error label ${label} on ${got}`;
  }
  if (expected.errorResponse !== undefined) {
    const mismatch = findMismatch(expected.errorResponse, err.errorResponse ?? error, { isRoot: true, entities });
    if (mismatch) return `errorResponse ${mismatch} (${got})`;
  }
  if ('expectResult' in expected) {
    // The partial result of a failed bulk write (e.g. insertMany with ordered: false).
    const mismatch = findMismatch(expected.expectResult, err.result, { isRoot: true, entities });
    if (mismatch) return `error result ${mismatch} (${got})`;
  }
  return undefined;
}

function eventLine(event: ObservedEvent): string {
  return `${event.type}:${event.commandName}`;
}

function matchEvent(
  expected: ExpectedEvent,
  actual: ObservedEvent,
  entities: EntityMap,
  at: string,
): string | undefined {
  const type = Object.keys(expected)[0] as keyof ExpectedEvent;
  const body = (expected[type] ?? {}) as {
    command?: unknown;
    reply?: unknown;
    commandName?: string;
    databaseName?: string;
  };
  if (actual.type !== type) return `${at}: expected ${type}, got ${eventLine(actual)}`;
  if (body.commandName !== undefined && body.commandName !== actual.commandName) {
    return `${at}: expected commandName ${body.commandName}, got ${actual.commandName}`;
  }
  if (body.databaseName !== undefined && body.databaseName !== actual.databaseName) {
    return `${at}: expected databaseName ${body.databaseName}, got ${actual.databaseName}`;
  }
  if (body.command !== undefined) {
    const mismatch = findMismatch(body.command, actual.command, { isRoot: true, entities });
    if (mismatch) return `${at} (${actual.commandName}) command ${mismatch}`;
  }
  if (body.reply !== undefined) {
    const mismatch = findMismatch(body.reply, actual.reply, { isRoot: true, entities });
    if (mismatch) return `${at} (${actual.commandName}) reply ${mismatch}`;
  }
  return undefined;
}

export function expectEvents(expectations: ExpectedEventsForClient[], entities: EntityMap): string | undefined {
  for (const { client, eventType = 'command', ignoreExtraEvents = false, events: expected } of expectations) {
    if (eventType !== 'command') return `runner: eventType ${eventType} is not supported`;
    const actual = entities.client(client).events;
    const countOk = ignoreExtraEvents ? actual.length >= expected.length : actual.length === expected.length;
    if (!countOk) {
      return (
        `events: expected ${expected.length}${ignoreExtraEvents ? '+' : ''} on ${client}, ` +
        `got ${actual.length} [${actual.map(eventLine).join(', ')}]`
      );
    }
    for (let i = 0; i < expected.length; i += 1) {
      const mismatch = matchEvent(expected[i], actual[i], entities, `events[${i}]`);
      if (mismatch) return mismatch;
    }
  }
  return undefined;
}

/** Exact final contents of each listed collection, read in `_id` order through the internal client. */
export async function expectOutcome(outcome: CollectionData[], internal: MongoClient): Promise<string | undefined> {
  for (const { databaseName, collectionName, documents } of outcome) {
    const actual = await internal
      .db(databaseName)
      .collection(collectionName)
      // Unpromoted, so an int32 the server turned into a double is caught.
      .find({}, { sort: { _id: 1 }, readConcern: { level: 'local' }, readPreference: 'primary', promoteValues: false })
      .toArray();
    const mismatch = findExactMismatch(documents, actual);
    if (mismatch) return `outcome ${databaseName}.${collectionName} ${mismatch}`;
  }
  return undefined;
}
