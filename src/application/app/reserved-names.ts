/** Names a custom method may not take: they would shadow the service's machinery. */
const RESERVED = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  // event emitter surface mixed into every service
  'on', 'once', 'off', 'emit', 'addListener', 'removeListener', 'removeAllListeners', 'listeners', 'listenerCount',
  'eventNames', 'prependListener', 'prependOnceListener', 'setMaxListeners', 'getMaxListeners', 'rawListeners',
  // hook and lifecycle surface
  'all', 'around', 'before', 'after', 'error', 'hooks', 'setup', 'teardown', 'publish',
]);

export function isReservedMethodName(name: string): boolean {
  return RESERVED.has(name);
}
