import { NotFound } from '../../domain/errors';
import { echo } from '../../domain/echo';
import type { ServiceRegistrationOptions } from '../../ports/service-options';
import type { ServicePort } from '../../ports/service.port';
import { createContext, type HookContext } from '../hooks/hook-context';
import { HookRegistry } from '../hooks/hook-registry';
import type { AroundHook, HookMap } from '../hooks/hook-types';
import { composeAround, levelChain } from '../hooks/run-hooks';
import { normalizePath } from './normalize-path';
import { createHookRegistry, mixInEmitter, resolveMethods, type RegisteredService } from './registered-service';
import { argumentsOfCall, callFromArguments, type ServiceCall } from './service-call';
import type { ServiceOf } from './typed-service';
import type { CallObserver } from '../observability/observe-service-calls';
import { servesExternalCallsOnly } from '../lifecycle/stage-label';

type Chains = Map<string, (context: HookContext) => Promise<void>>;

/** Creates a service for a path the app does not know (the REST client installs one). */
export type DefaultServiceFactory = (path: string) => any;
type AppHook = (app: Application, next: () => Promise<void>) => Promise<void> | void;
/**
 * Called for every service `use` registers (after its wrapper exists): how plugins such as channels extend services.
 */
export type ServiceMixin = (entry: RegisteredService, app: Application) => void;

/** What `createApp` may be told. */
export interface CreateAppOptions {
  /**
   * The methods of each remote service, custom ones included, for the services `service(path)`
   * creates through a client transport: those are then callable without `app.use(path, ..., { methods })`.
   */
  serviceMethods?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The application core: a registry of services wrapped with hooks and events. It knows nothing
 * of transports; they call `execute` to get the whole context (status, dispatch) of a call.
 * `Services` maps paths to what `service(path)` returns (a client's generated `ServiceTypes`).
 */
export class Application<Services = any> {
  private readonly registered = new Map<string, RegisteredService>();
  private readonly appHooks = new HookRegistry();
  private readonly lifecycleHooks: { setup: AppHook[]; teardown: AppHook[] } = { setup: [], teardown: [] };
  /**
   * Composed hook chains per service and method, one for calls from transports and one for internal
   * calls; dropped whenever hooks or services change.
   */
  private readonly chains = new Map<RegisteredService, { external: Chains; internal: Chains }>();
  private readonly settings = new Map<string, unknown>();
  private isSetUp = false;
  /** Incremented on every `use`/`unuse`, so transports can rebuild their route tables lazily. */
  version = 0;
  defaultService?: DefaultServiceFactory;
  /** The connection a REST client was configured with (seed: `app.rest`). */
  rest?: unknown;
  /** Run on every later `use`; a plugin adding one also handles the services already registered (`entries()`). */
  readonly mixins: ServiceMixin[] = [];
  /** Traces and measures every call (`observeServiceCalls`); unset, calls pay nothing for it. */
  observeCall?: CallObserver;

  constructor(private readonly options: CreateAppOptions = {}) {}

  use(path: string, service: ServicePort | Record<string, any>, options: ServiceRegistrationOptions = {}): this {
    const location = normalizePath(path);
    if (service === null || typeof service !== 'object')
      throw new Error(`Invalid service object passed for path \`${location}\``);
    const { methods, hookedMethods } = resolveMethods(location, service, options);
    const wrapper = Object.create(service);
    const entry: RegisteredService = {
      path: location,
      original: service,
      wrapper,
      methods,
      hookedMethods,
      events: options.events ?? (service as { events?: string[] }).events ?? [],
      hooks: createHookRegistry(hookedMethods),
      options,
    };
    mixInEmitter(wrapper);
    for (const method of hookedMethods) {
      Object.defineProperty(wrapper, method, {
        value: (...args: unknown[]) =>
          this.execute(location, method, callFromArguments(method, args)).then((context) => context.result),
        configurable: true,
        writable: true,
      });
    }
    Object.defineProperty(wrapper, 'hooks', {
      value: (map: HookMap) => {
        entry.hooks.register(map);
        this.chains.clear();
        return wrapper;
      },
      configurable: true,
    });
    this.registered.set(location, entry);
    for (const mixin of this.mixins) mixin(entry, this);
    this.version++;
    if (this.isSetUp && typeof service.setup === 'function') this.setUpLate(entry);
    return this;
  }

  /**
   * `use` stays synchronous (as in Feathers), so a service added after `app.setup()` is set up in
   * the background: its calls wait for that, a failure rejects them (never an unhandled rejection),
   * and `teardown` waits for it too.
   */
  private setUpLate(entry: RegisteredService): void {
    const pending = Promise.resolve()
      .then(() => entry.original.setup(this, entry.path))
      .then(() => {
        if (entry.pendingSetup === pending) entry.pendingSetup = undefined;
      });
    pending.catch(() => undefined);
    entry.pendingSetup = pending;
  }

  async unuse(path: string): Promise<any> {
    const location = normalizePath(path);
    const entry = this.registered.get(location);
    if (!entry) throw new NotFound(`Can not find service '${echo(location)}'`);
    this.registered.delete(location);
    this.chains.clear();
    this.version++;
    if (entry.pendingSetup) await entry.pendingSetup.catch(() => undefined);
    if (typeof entry.original.teardown === 'function') await entry.original.teardown(this, location);
    return entry.original;
  }

  /**
   * The hooked service at `path`; on a client with a default factory, a remote service is created,
   * with the methods `serviceMethods` names for that path.
   */
  service<K extends keyof Services & string>(path: K): ServiceOf<Services[K]>;
  service<S = any>(path: string): S;
  service(path: string): unknown {
    const location = normalizePath(path);
    const entry = this.registered.get(location);
    if (entry) return entry.wrapper;
    if (this.defaultService) {
      const methods =
        this.options.serviceMethods && Object.hasOwn(this.options.serviceMethods, location)
          ? this.options.serviceMethods[location]
          : undefined;
      this.use(location, this.defaultService(location), methods ? { methods: [...methods] } : {});
      return this.registered.get(location)!.wrapper;
    }
    throw new NotFound(`Can not find service '${echo(location)}'`);
  }

  /** The hooks registered with `app.hooks(...)`, which every service call crosses first (`npm run describe`). */
  appLevelHooks(): HookRegistry {
    return this.appHooks;
  }

  /** Registration details for transports; undefined when no service is at `path`. */
  lookup(path: string): RegisteredService | undefined {
    return this.registered.get(normalizePath(path));
  }

  entries(): RegisteredService[] {
    return [...this.registered.values()];
  }

  hooks(map: HookMap & { setup?: AppHook | AppHook[]; teardown?: AppHook | AppHook[] }): this {
    const { setup, teardown, ...rest } = map as Record<string, unknown>;
    if (setup) this.lifecycleHooks.setup.push(...([] as AppHook[]).concat(setup as AppHook));
    if (teardown) this.lifecycleHooks.teardown.push(...([] as AppHook[]).concat(teardown as AppHook));
    if (Object.keys(rest).length > 0 || typeof map === 'function' || Array.isArray(map))
      this.appHooks.register(map as HookMap);
    this.chains.clear();
    return this;
  }

  configure(fn: (app: this) => void): this {
    fn.call(this, this);
    return this;
  }

  set(name: string, value: unknown): this {
    this.settings.set(name, value);
    return this;
  }

  get<T = unknown>(name: string): T | undefined {
    return this.settings.get(name) as T | undefined;
  }

  /** Calls every service's `setup(app, path)` in registration order, inside the app's setup hooks. */
  async setup(): Promise<this> {
    await this.runLifecycle('setup');
    return this;
  }

  /** Calls every service's `teardown(app, path)` in registration order, inside the app's teardown hooks. */
  async teardown(): Promise<this> {
    await this.runLifecycle('teardown');
    return this;
  }

  /**
   * Runs one call through app hooks, service hooks and the method, then emits its event.
   * Returns the final context; the error, if any, is thrown. Transports call this with the call
   * they built (its `params` becomes the context's own); a service object's methods call it too.
   */
  async execute(path: string, method: string, call: ServiceCall): Promise<HookContext> {
    const location = normalizePath(path);
    const entry = this.registered.get(location);
    if (!entry) throw new NotFound(`Can not find service '${echo(location)}'`);
    if (!entry.hookedMethods.includes(method))
      throw new NotFound(`Method '${echo(method)}' is not available on service '${echo(location)}'`);
    if (entry.pendingSetup) await entry.pendingSetup;
    const context = createContext(this, entry.wrapper, location, method, call);
    // Whether the call is a transport's is decided here, once: it picks the chain.
    const chain = this.chainFor(entry, method, Boolean(call.params.provider));
    if (this.observeCall === undefined) await chain(context);
    else await this.observeCall(context, chain);
    this.emitEvent(entry, context);
    return context;
  }

  /**
   * The layers a call of `method` crosses, outermost first: the app's hooks, then the service's (a
   * definition's stages, then hooks added later). Internal calls skip the stages that serve
   * transports only (`servesExternalCallsOnly`), decided here once per chain, never per hook.
   */
  private layersOf(entry: RegisteredService, method: string, external: boolean): AroundHook[] {
    const hooks: AroundHook[] = [...levelChain(this.appHooks, method), ...levelChain(entry.hooks, method)];
    return external ? hooks : hooks.filter((hook) => !servesExternalCallsOnly(hook));
  }

  private chainFor(
    entry: RegisteredService,
    method: string,
    external: boolean,
  ): (context: HookContext) => Promise<void> {
    let chains = this.chains.get(entry);
    if (!chains) this.chains.set(entry, (chains = { external: new Map(), internal: new Map() }));
    const byMethod = external ? chains.external : chains.internal;
    let chain = byMethod.get(method);
    if (!chain) {
      const implementation = entry.original[method] as (...args: unknown[]) => Promise<unknown>;
      chain = composeAround(this.layersOf(entry, method, external), async (context) => {
        // A before hook that set a result skips the method.
        if (context.result === undefined)
          context.result = await implementation.apply(entry.original, argumentsOfCall(method, context));
      });
      byMethod.set(method, chain);
    }
    return chain;
  }

  private emitEvent(entry: RegisteredService, context: HookContext): void {
    const event = context.event;
    if (
      !event ||
      entry.options.localEvents === false ||
      entry.events.includes(event) ||
      context.result === undefined ||
      context.result === null
    )
      return;
    const items = Array.isArray(context.result) ? context.result : [context.result];
    for (const item of items) entry.wrapper.emit(event, item, context);
  }

  private async runLifecycle(kind: 'setup' | 'teardown'): Promise<void> {
    const hooks = this.lifecycleHooks[kind];
    const run = async (index: number): Promise<void> => {
      if (index < hooks.length) return hooks[index](this, () => run(index + 1));
      for (const entry of this.registered.values()) {
        // A late setup still running is waited for; one that failed is tried again by `app.setup()`.
        if (entry.pendingSetup) await entry.pendingSetup.catch(() => undefined);
        if (kind === 'setup') entry.pendingSetup = undefined;
        if (typeof entry.original[kind] === 'function') await entry.original[kind](this, entry.path);
      }
      this.isSetUp = kind === 'setup';
    };
    await run(0);
  }
}

/**
 * `createApp<ServiceTypes>({ serviceMethods })` on a client: typed services whose custom methods need no registration.
 */
export function createApp<Services = any>(options: CreateAppOptions = {}): Application<Services> {
  return new Application<Services>(options);
}
