import {
  MongoClient,
  type ClientSession,
  type Collection,
  type CommandFailedEvent,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Db,
  type Document,
  type MongoClientOptions,
} from 'mongodb';
import type { MatchEntities } from './matcher';
import type { EntityDef } from './unified-types';

export type ObservedEventType = 'commandStartedEvent' | 'commandSucceededEvent' | 'commandFailedEvent';

export interface ObservedEvent {
  type: ObservedEventType;
  commandName: string;
  databaseName: string;
  command?: Document;
  reply?: Document;
}

export interface ClientEntity {
  client: MongoClient;
  events: ObservedEvent[];
  /** Cleared once operations end, so cleanup traffic (endSessions...) is not asserted. */
  observing: boolean;
}

// The spec has runners ignore these: they carry credentials or are fail point plumbing.
const ALWAYS_IGNORED = new Set([
  'authenticate',
  'saslStart',
  'saslContinue',
  'getnonce',
  'createUser',
  'updateUser',
  'copydbgetnonce',
  'copydbsaslstart',
  'copydb',
  'hello',
  'ismaster',
  'isMaster',
  'configureFailPoint',
]);

/** Options every client entity gets: local, direct, and quick to give up so a case stays bounded. */
export const BASE_CLIENT_OPTIONS: MongoClientOptions = {
  directConnection: true,
  serverSelectionTimeoutMS: 5_000,
  connectTimeoutMS: 5_000,
};

interface EntityKinds {
  client: ClientEntity;
  database: Db;
  collection: Collection;
  session: ClientSession;
  result: unknown;
}

type Kind = keyof EntityKinds;
type Entity = { [K in Kind]: { kind: K; value: EntityKinds[K] } }[Kind];

export class EntityMap implements MatchEntities {
  private readonly entries = new Map<string, Entity>();
  /** Set by close(); a case that timed out may still be creating entities in the background. */
  private closed = false;

  private add(id: string, entity: Entity): void {
    if (this.entries.has(id)) throw new Error(`entity "${id}" is defined twice`);
    this.entries.set(id, entity);
  }

  private lookup<K extends Kind>(id: string, kind: K): EntityKinds[K] {
    const entity = this.entries.get(id);
    if (!entity) throw new Error(`no entity "${id}"`);
    if (entity.kind !== kind) throw new Error(`entity "${id}" is a ${entity.kind}, not a ${kind}`);
    return entity.value as EntityKinds[K];
  }

  kindOf(id: string): Kind | undefined {
    return this.entries.get(id)?.kind;
  }

  client(id: string): ClientEntity {
    return this.lookup(id, 'client');
  }

  database(id: string): Db {
    return this.lookup(id, 'database');
  }

  collection(id: string): Collection {
    return this.lookup(id, 'collection');
  }

  session(id: string): ClientSession {
    return this.lookup(id, 'session');
  }

  saveResult(id: string, value: unknown): void {
    this.entries.delete(id);
    this.add(id, { kind: 'result', value });
  }

  entity(id: string): unknown {
    const entity = this.entries.get(id);
    if (!entity) throw new Error(`no entity "${id}"`);
    return entity.value;
  }

  sessionLsid(id: string): unknown {
    return this.session(id).id;
  }

  clients(): Array<[string, ClientEntity]> {
    return [...this.entries].flatMap(([id, e]) =>
      e.kind === 'client' ? [[id, e.value] as [string, ClientEntity]] : [],
    );
  }

  /** Creates the file's entities in order; the caller closes the map even when this fails midway. */
  async populate(defs: EntityDef[], url: string): Promise<void> {
    for (const def of defs) await this.createOne(def, url);
  }

  private async createOne(def: EntityDef, url: string): Promise<void> {
    if (this.closed) throw new Error('entity map already closed');
    if (def.client) {
      const { id, uriOptions = {}, observeEvents = [], ignoreCommandMonitoringEvents = [] } = def.client;
      const client = new MongoClient(url, {
        ...BASE_CLIENT_OPTIONS,
        ...(uriOptions as MongoClientOptions),
        monitorCommands: observeEvents.length > 0,
      });
      const entity: ClientEntity = { client, events: [], observing: true };
      const ignored = new Set([...ALWAYS_IGNORED, ...ignoreCommandMonitoringEvents]);
      const record = (type: ObservedEventType, event: ObservedEvent): void => {
        if (entity.observing && observeEvents.includes(type) && !ignored.has(event.commandName))
          entity.events.push(event);
      };
      client.on('commandStarted', (e: CommandStartedEvent) =>
        record('commandStartedEvent', {
          type: 'commandStartedEvent',
          commandName: e.commandName,
          databaseName: e.databaseName,
          command: e.command,
        }),
      );
      client.on('commandSucceeded', (e: CommandSucceededEvent) =>
        record('commandSucceededEvent', {
          type: 'commandSucceededEvent',
          commandName: e.commandName,
          databaseName: e.databaseName,
          reply: e.reply as Document,
        }),
      );
      client.on('commandFailed', (e: CommandFailedEvent) =>
        record('commandFailedEvent', {
          type: 'commandFailedEvent',
          commandName: e.commandName,
          databaseName: e.databaseName,
        }),
      );
      this.add(id, { kind: 'client', value: entity });
      await client.connect();
      if (this.closed) await client.close(true);
      return;
    }
    if (def.database) {
      const { id, client, databaseName, databaseOptions } = def.database;
      this.add(id, { kind: 'database', value: this.client(client).client.db(databaseName, databaseOptions) });
      return;
    }
    if (def.collection) {
      const { id, database, collectionName, collectionOptions } = def.collection;
      this.add(id, {
        kind: 'collection',
        value: this.database(database).collection(collectionName, collectionOptions),
      });
      return;
    }
    if (def.session) {
      const { id, client, sessionOptions } = def.session;
      this.add(id, { kind: 'session', value: this.client(client).client.startSession(sessionOptions) });
      return;
    }
    throw new Error(`unsupported entity type: ${Object.keys(def).join(', ')}`);
  }

  stopObserving(): void {
    for (const [, client] of this.clients()) client.observing = false;
  }

  /** Ends sessions and force-closes clients; never throws, so cleanup cannot hide the case's result. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopObserving();
    for (const entity of this.entries.values()) {
      if (entity.kind === 'session') await entity.value.endSession().catch(() => undefined);
    }
    await Promise.all(this.clients().map(([, entity]) => entity.client.close(true).catch(() => undefined)));
    this.entries.clear();
  }
}
