/** What every JavaScript object answers to: `constructor`, `toString`, `valueOf`, `__proto__`, ... */
const OBJECT_PROTOTYPE = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Names a custom method may not take: they would shadow the service's machinery. */
const RESERVED = new Set([
  ...OBJECT_PROTOTYPE,
  // event emitter surface mixed into every service
  'on',
  'once',
  'off',
  'emit',
  'addListener',
  'removeListener',
  'removeAllListeners',
  'listeners',
  'listenerCount',
  'eventNames',
  'prependListener',
  'prependOnceListener',
  'setMaxListeners',
  'getMaxListeners',
  'rawListeners',
  // hook and lifecycle surface
  'all',
  'around',
  'before',
  'after',
  'error',
  'hooks',
  'setup',
  'teardown',
  'publish',
]);

export function isReservedMethodName(name: string): boolean {
  return RESERVED.has(name);
}

/** A name that a lookup on a plain object would find without anyone having set it. */
export function isObjectPrototypeName(name: string): boolean {
  return OBJECT_PROTOTYPE.has(name);
}
