/**
 * Field access that treats every name, `__proto__` included, as a plain stored field. mongod
 * stores a field named `__proto__` like any other; in JS, `obj.__proto__` reads and writes the
 * prototype instead, which would lose the field or, on a path walk, reach `Object.prototype`.
 */
export function ownField(container: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(container, key) ? (container as Record<string, unknown>)[key] : undefined;
}

/** Sets `key` as an own data property, never changing the object's prototype. */
export function setOwnField(container: object, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
  else (container as Record<string, unknown>)[key] = value;
}
