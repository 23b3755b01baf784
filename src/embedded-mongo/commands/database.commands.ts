import { BSON, type Document } from 'bson';
import { compileFilter } from '../query/match';
import { optionalDocument } from './command-args';
import type { CommandHandler } from './command-context';

export const listDatabasesCommand: CommandHandler = (command, context) => {
  const matches = compileFilter(optionalDocument(command, 'filter'));
  const databases: Document[] = [];
  let totalSize = 0;
  for (const name of context.catalog.databaseNames()) {
    let sizeOnDisk = 0;
    for (const collection of context.catalog.collectionNames(name)) {
      for (const doc of context.catalog.getCollection(name, collection)!.documents())
        sizeOnDisk += BSON.calculateObjectSize(doc);
    }
    const entry = command.nameOnly === true ? { name } : { name, sizeOnDisk, empty: sizeOnDisk === 0 };
    if (!matches(entry)) continue;
    totalSize += sizeOnDisk;
    databases.push(entry);
  }
  return command.nameOnly === true
    ? { databases, ok: 1 }
    : { databases, totalSize, totalSizeMb: Math.floor(totalSize / 1048576), ok: 1 };
};

export const dropDatabaseCommand: CommandHandler = (_command, context) => {
  context.catalog.dropDatabase(context.db);
  return { dropped: context.db, ok: 1 };
};
