/** A dotted path's top-level field (`profile.name` is `profile`): what policies name. */
export function topLevelField(path: string): string {
  const dot = path.indexOf('.');
  return dot === -1 ? path : path.slice(0, dot);
}

/** Lists `path`'s top-level field in `fields` once. A call names a handful of fields: a list is cheaper than a set here. */
export function addTopLevelField(fields: string[], path: string): void {
  const field = topLevelField(path);
  if (!fields.includes(field)) fields.push(field);
}
