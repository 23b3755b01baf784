import type { Document } from 'mongodb';

// The slice of the unified test format (schema 1.x) that the CRUD files use.

export interface RunOnRequirement {
  minServerVersion?: string;
  maxServerVersion?: string;
  topologies?: string[];
  serverless?: 'require' | 'forbid' | 'allow';
  auth?: boolean;
  csfle?: boolean;
  serverParameters?: Document;
}

export interface ClientEntityDef {
  id: string;
  uriOptions?: Document;
  useMultipleMongoses?: boolean;
  observeEvents?: string[];
  ignoreCommandMonitoringEvents?: string[];
  observeSensitiveCommands?: boolean;
}

export interface DatabaseEntityDef {
  id: string;
  client: string;
  databaseName: string;
  databaseOptions?: Document;
}

export interface CollectionEntityDef {
  id: string;
  database: string;
  collectionName: string;
  collectionOptions?: Document;
}

export interface SessionEntityDef {
  id: string;
  client: string;
  sessionOptions?: Document;
}

export interface EntityDef {
  client?: ClientEntityDef;
  database?: DatabaseEntityDef;
  collection?: CollectionEntityDef;
  session?: SessionEntityDef;
}

export interface CollectionData {
  collectionName: string;
  databaseName: string;
  createOptions?: Document;
  documents: Document[];
}

export interface ExpectedError {
  isError?: boolean;
  isClientError?: boolean;
  isTimeoutError?: boolean;
  errorContains?: string;
  errorCode?: number;
  errorCodeName?: string;
  errorLabelsContain?: string[];
  errorLabelsOmit?: string[];
  errorResponse?: Document;
  expectResult?: unknown;
}

export interface OperationDef {
  name: string;
  object: string;
  arguments?: Document;
  expectResult?: unknown;
  expectError?: ExpectedError;
  ignoreResultAndError?: boolean;
  saveResultAsEntity?: string;
}

export interface ExpectedEvent {
  commandStartedEvent?: { command?: Document; commandName?: string; databaseName?: string };
  commandSucceededEvent?: { reply?: Document; commandName?: string; databaseName?: string };
  commandFailedEvent?: { commandName?: string; databaseName?: string };
}

export interface ExpectedEventsForClient {
  client: string;
  eventType?: 'command' | 'cmap' | 'sdam';
  ignoreExtraEvents?: boolean;
  events: ExpectedEvent[];
}

export interface UnifiedTest {
  description: string;
  runOnRequirements?: RunOnRequirement[];
  skipReason?: string;
  operations: OperationDef[];
  expectEvents?: ExpectedEventsForClient[];
  outcome?: CollectionData[];
}

export interface UnifiedFile {
  description: string;
  schemaVersion: string;
  runOnRequirements?: RunOnRequirement[];
  createEntities?: EntityDef[];
  initialData?: CollectionData[];
  tests: UnifiedTest[];
}

/** One case of the subset, resolved to its file and test (or to why it could not be). */
export interface SelectedCase {
  file: string;
  description: string;
  features: string[];
  unifiedFile?: UnifiedFile;
  test?: UnifiedTest;
  loadError?: string;
}
