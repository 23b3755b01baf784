import type { MongoClient } from 'mongodb';
import { EntityMap } from './entities';
import { expectError, expectEvents, expectOutcome, expectResult } from './expectations';
import { preview } from './matcher';
import { RunnerError, runOperation } from './operations';
import { requirementsUnmet, type ServerInfo } from './requirements';
import type { CollectionData, OperationDef, SelectedCase } from './unified-types';

export type FailureStage =
  'load' | 'requirements' | 'setup' | 'operation' | 'events' | 'outcome' | 'timeout' | 'runner';

export interface CaseResult {
  file: string;
  description: string;
  passed: boolean;
  stage?: FailureStage;
  reason?: string;
  ms: number;
}

export interface RunContext {
  url: string;
  /** The spec's "internal MongoClient": sets up initialData and reads outcomes, never observed. */
  internal: MongoClient;
  server: ServerInfo;
  timeoutMs: number;
}

class CaseFailure extends Error {
  constructor(
    readonly stage: FailureStage,
    message: string,
  ) {
    super(message);
  }
}

const MAJORITY = { writeConcern: { w: 'majority' } } as const;

async function setUpInitialData(internal: MongoClient, initialData: CollectionData[]): Promise<void> {
  for (const { databaseName, collectionName, createOptions, documents } of initialData) {
    const db = internal.db(databaseName);
    await db.collection(collectionName).drop(MAJORITY); // the driver ignores NamespaceNotFound
    if (createOptions) await db.createCollection(collectionName, { ...createOptions, ...MAJORITY });
    if (documents.length > 0)
      await db.collection(collectionName).insertMany(documents, { ...MAJORITY, forceServerObjectId: true });
    else if (!createOptions) await db.createCollection(collectionName, MAJORITY);
  }
}

async function runOperations(ops: OperationDef[], entities: EntityMap): Promise<void> {
  for (const [index, op] of ops.entries()) {
    const at = `operations[${index}] ${op.name} on ${op.object}`;
    let result: unknown;
    let error: unknown;
    let threw = false;
    try {
      result = await runOperation(op, entities);
    } catch (caught) {
      threw = true;
      error = caught;
    }
    if (threw && error instanceof RunnerError) throw new CaseFailure('runner', `${at}: ${error.message}`);
    if (op.ignoreResultAndError) continue;
    if (op.expectError) {
      if (!threw) throw new CaseFailure('operation', `${at}: expected an error, got result ${preview(result)}`);
      const mismatch = expectError(op.expectError, error, entities);
      if (mismatch) throw new CaseFailure('operation', `${at}: ${mismatch}`);
      continue;
    }
    if (threw) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : preview(error);
      throw new CaseFailure('operation', `${at}: unexpected error ${message}`);
    }
    const mismatch = expectResult(op, result, entities);
    if (mismatch) throw new CaseFailure('operation', `${at}: ${mismatch}`);
    if (op.saveResultAsEntity) entities.saveResult(op.saveResultAsEntity, result);
  }
}

interface CaseState {
  stage: FailureStage;
  /** Created before the case starts so a timeout can always close it. */
  entities: EntityMap;
}

async function execute(c: SelectedCase, ctx: RunContext, state: CaseState): Promise<void> {
  const file = c.unifiedFile!;
  const test = c.test!;
  state.stage = 'setup';
  try {
    await setUpInitialData(ctx.internal, file.initialData ?? []);
    await state.entities.populate(file.createEntities ?? [], ctx.url);
  } catch (error) {
    throw new CaseFailure('setup', error instanceof Error ? `${error.name}: ${error.message}` : preview(error));
  }
  const { entities } = state;
  state.stage = 'operation';
  await runOperations(test.operations, entities);
  entities.stopObserving();
  state.stage = 'events';
  const eventMismatch = test.expectEvents && expectEvents(test.expectEvents, entities);
  if (eventMismatch) throw new CaseFailure(eventMismatch.startsWith('runner:') ? 'runner' : 'events', eventMismatch);
  state.stage = 'outcome';
  const outcomeMismatch = test.outcome && (await expectOutcome(test.outcome, ctx.internal));
  if (outcomeMismatch) throw new CaseFailure('outcome', outcomeMismatch);
}

/** Runs one subset case to a verdict; never throws, and always closes the case's clients. */
export async function runCase(c: SelectedCase, ctx: RunContext): Promise<CaseResult> {
  const started = Date.now();
  const verdict = (passed: boolean, stage?: FailureStage, reason?: string): CaseResult => ({
    file: c.file,
    description: c.description,
    passed,
    stage,
    reason,
    ms: Date.now() - started,
  });
  if (c.loadError || !c.unifiedFile || !c.test) return verdict(false, 'load', c.loadError ?? 'not loaded');
  const unmet =
    requirementsUnmet(c.unifiedFile.runOnRequirements, ctx.server) ??
    requirementsUnmet(c.test.runOnRequirements, ctx.server);
  if (unmet) return verdict(false, 'requirements', unmet);
  if (c.test.skipReason) return verdict(false, 'requirements', `test has skipReason: ${c.test.skipReason}`);

  const state: CaseState = { stage: 'setup', entities: new EntityMap() };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CaseFailure('timeout', '')), ctx.timeoutMs);
  });
  try {
    await Promise.race([execute(c, ctx, state), timeout]);
    return verdict(true);
  } catch (error) {
    if (error instanceof CaseFailure && error.stage === 'timeout') {
      return verdict(false, 'timeout', `no verdict within ${ctx.timeoutMs} ms (stuck in ${state.stage})`);
    }
    if (error instanceof CaseFailure) return verdict(false, error.stage, error.message);
    return verdict(false, state.stage, error instanceof Error ? `${error.name}: ${error.message}` : preview(error));
  } finally {
    clearTimeout(timer);
    await state.entities.close();
  }
}
