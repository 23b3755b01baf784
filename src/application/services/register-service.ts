import type { Application } from '../app/application';
import type { AroundHook } from '../hooks/hook-types';
import { labelled } from '../lifecycle/stage-label';
import { SERVICE_STAGES } from '../lifecycle/service-stages';
import { PolicyViews } from '../policy/policy-views';
import type { ServiceMethods } from '../../ports/service.port';
import { idOf, type ServiceDefinition, type ServiceDependencies } from './service-definition';
import { USER_IDENTITY } from './users/user-identity';

/**
 * Registers a definition's service on `app` over its store, with the definition's stages as the
 * layers of each method's chain, in the order of `SERVICE_STAGES` (docs/lifecycle.md). A binding to
 * another server skips the stages that server runs (`runsOn: 'storing server'`) and the custom
 * methods' implementations (it forwards them). The policy's views also decide what each real-time
 * connection receives of the service's events, on every binding.
 */
export function registerService(
  app: Application,
  definition: ServiceDefinition,
  store: ServiceMethods,
  { storesLocally, idempotency, eventsFromStoringServer, ...hookDependencies }: ServiceDependencies,
): void {
  const service = storesLocally ? withCustomMethods(store, definition) : store;
  const views = policyViewsOf(app, definition);
  app.use(definition.path, service, {
    methods: [...definition.methods],
    events: definition.events ? [...definition.events] : undefined,
    visibility: views,
    // The storing server's event of a call through this binding is the one heard.
    localEvents: storesLocally || !eventsFromStoringServer,
  });
  // Every method that runs through hooks: those transports may call, and the store's others (internal).
  const methods = app.lookup(definition.path)!.hookedMethods;
  const input = { definition, hookedMethods: methods, views, idempotency, hookDependencies };
  const around: Record<string, AroundHook[]> = {};
  for (const method of methods) around[method] = [];
  for (const stage of SERVICE_STAGES) {
    if (stage.runsOn === 'storing server' && !storesLocally) continue;
    const work = stage.build(input);
    for (const method of methods) {
      if (stage.methods === 'listed' && !definition.methods.includes(method)) continue;
      const done = work(method);
      if (!done) continue;
      const label = {
        stage: stage.name,
        slot: done.slot,
        externalOnly: stage.calls === 'external calls',
        authenticates: done.authenticates === true,
      };
      for (const layer of done.layers) around[method].push(labelled(label, layer, method));
    }
  }
  // Per method, never `all`: hooks for `all` would run before every method's own.
  app.service(definition.path).hooks({ around });
}

/**
 * What the definition's policy lets each caller see, if it has one. Relations need one: it is what
 * decides who reads the field naming a related record.
 */
function policyViewsOf(app: Application, definition: ServiceDefinition): PolicyViews | undefined {
  if (!definition.policy) {
    if (definition.relations)
      throw new Error(
        `Service '${definition.path}' declares relations but no policy: the policy decides who sees them`,
      );
    return undefined;
  }
  return new PolicyViews({
    path: definition.path,
    policy: definition.policy,
    rolesField: USER_IDENTITY.rolesField,
    idField: idOf(definition).field,
    hiddenFields: definition.hiddenFields ?? [],
    computed: definition.computedFields,
    relations: definition.relations,
    visibilityOf: (path) => app.lookup(path)?.options.visibility,
  });
}

/**
 * The store with the definition's custom methods on top; the store stays the prototype, so every
 * standard method is the store's own.
 */
function withCustomMethods(store: ServiceMethods, definition: ServiceDefinition): ServiceMethods {
  const custom = definition.customMethods ?? {};
  const missing = definition.methods.filter((method) => !(method in store) && !(method in custom));
  if (missing.length > 0)
    throw new Error(`Service '${definition.path}' lists ${missing.join(', ')} in methods but implements none of them`);
  if (Object.keys(custom).length === 0) return store;
  const service = Object.create(store) as ServiceMethods & Record<string, unknown>;
  for (const [name, implementation] of Object.entries(custom)) {
    service[name] = (data: unknown, params = {}) => implementation(store, data, params);
  }
  return service;
}
