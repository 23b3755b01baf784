import { topLevelField } from './top-level-field';

/**
 * The top-level fields a write sets: a record's own keys, and for update operators
 * (`{ $inc: { likes: 1 } }`) the fields each operator changes (`likes`). A dotted path counts as
 * its top-level field, which is what policies name.
 */
export function writtenFields(data: unknown): string[] {
  // A set, not a list searched per key: a body of tens of thousands of keys stays linear work.
  const fields = new Set<string>();
  if (Array.isArray(data)) for (const item of data) addWrittenFields(item, fields);
  else addWrittenFields(data, fields);
  return [...fields];
}

function addWrittenFields(item: unknown, fields: Set<string>): void {
  if (typeof item !== 'object' || item === null) return;
  for (const key of Object.keys(item)) {
    if (!key.startsWith('$')) fields.add(topLevelField(key));
    else {
      const value = (item as Record<string, unknown>)[key];
      if (typeof value === 'object' && value !== null)
        for (const path of Object.keys(value)) fields.add(topLevelField(path));
    }
  }
}
