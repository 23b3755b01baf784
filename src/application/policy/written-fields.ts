import { topLevelField } from './top-level-field';

/**
 * The top-level fields a write sets: a record's own keys, and for update operators
 * (`{ $inc: { likes: 1 } }`) the fields each operator changes (`likes`). A dotted path counts as
 * its top-level field, which is what policies name.
 */
export function writtenFields(data: unknown): string[] {
  const fields = new Set<string>();
  const items = Array.isArray(data) ? data : [data];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, value] of Object.entries(item)) {
      if (!key.startsWith('$')) fields.add(topLevelField(key));
      else if (typeof value === 'object' && value !== null) for (const path of Object.keys(value)) fields.add(topLevelField(path));
    }
  }
  return [...fields];
}
