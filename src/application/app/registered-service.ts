import EventEmitter from 'eventemitter3';
import { STANDARD_METHODS } from '../../ports/service.port';
import type { ServiceRegistrationOptions } from '../../ports/service-options';
import { HookRegistry } from '../hooks/hook-registry';
import type { HookMap } from '../hooks/hook-types';
import { isReservedMethodName } from './reserved-names';

/** What the app keeps for each `app.use`: the original, its hooked wrapper, and what transports may call. */
export interface RegisteredService {
  readonly path: string;
  readonly original: any;
  readonly wrapper: any;
  /** Methods reachable from transports. */
  readonly methods: readonly string[];
  /** Every method that runs through hooks (standard methods present, plus listed custom ones). */
  readonly hookedMethods: readonly string[];
  readonly events: readonly string[];
  readonly hooks: HookRegistry;
  /** The options it was registered with. */
  readonly options: ServiceRegistrationOptions;
  /**
   * The `setup` of a service registered after `app.setup()`, while it runs (or if it failed):
   * calls wait for it, and a failed setup fails every call with its error.
   */
  pendingSetup?: Promise<void>;
}

const EMITTER_METHODS = [
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
] as const;

/**
 * A service that creates custom methods on demand (the REST client) implements this: `app.use`
 * calls it with the listed methods it lacks, before checking that every listed method exists.
 */
export const DECLARE_METHODS: unique symbol = Symbol('declareMethods');

export function resolveMethods(
  path: string,
  service: any,
  options: ServiceRegistrationOptions,
): { methods: string[]; hookedMethods: string[] } {
  const present = STANDARD_METHODS.filter((name) => typeof service[name] === 'function');
  const methods = options.methods ? [...options.methods] : present;
  const missing = methods.filter((name) => typeof name === 'string' && typeof service[name] !== 'function');
  if (missing.length > 0 && typeof service[DECLARE_METHODS] === 'function') service[DECLARE_METHODS](missing);
  for (const name of methods) {
    if (typeof name !== 'string' || name === '') throw new Error(`Invalid method name on service '${path}'`);
    if (!(STANDARD_METHODS as readonly string[]).includes(name) && isReservedMethodName(name)) {
      throw new Error(`'${name}' on service '${path}' is not allowed as a custom method name`);
    }
    if (typeof service[name] !== 'function')
      throw new Error(`Can not apply hooks. '${name}' is not a function on service '${path}'`);
  }
  const hookedMethods = [...new Set([...present, ...methods])];
  if (hookedMethods.length === 0 && typeof service.setup !== 'function' && typeof service.teardown !== 'function') {
    throw new Error(`Invalid service object passed for path \`${path}\``);
  }
  return { methods, hookedMethods };
}

/** Gives the wrapper event-emitter methods when the service has none of its own. */
export function mixInEmitter(wrapper: any): void {
  if (typeof wrapper.on === 'function' && typeof wrapper.emit === 'function') return;
  const emitter = new EventEmitter();
  for (const name of EMITTER_METHODS) {
    const fn = (emitter as any)[name];
    if (typeof fn === 'function') Object.defineProperty(wrapper, name, { value: fn.bind(emitter), configurable: true });
  }
}

export function createHookRegistry(hookedMethods: readonly string[]): HookRegistry {
  return new HookRegistry(() => hookedMethods);
}

export type ServiceHooksFn = (map: HookMap) => unknown;
