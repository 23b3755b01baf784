/** A dotted path's top-level field (`profile.name` is `profile`): what policies name. */
export function topLevelField(path: string): string {
  const dot = path.indexOf('.');
  return dot === -1 ? path : path.slice(0, dot);
}
