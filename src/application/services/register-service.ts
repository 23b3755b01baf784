import type { Application } from '../app/application';
import { byMethod } from '../hooks/by-method';
import { protectFields } from '../hooks/protect-fields.hook';
import type { HookMap } from '../hooks/hook-types';
import { answerPolicyErrors, enforcePolicy } from '../policy/enforce-policy.hook';
import { PolicyViews } from '../policy/policy-views';
import { resolveRelations } from '../relations/resolve-relations.hook';
import { idempotentCalls } from '../idempotency/idempotent-calls.hook';
import { validateData } from '../validation/validate-data.hook';
import { validateQuery } from '../validation/validate-query.hook';
import type { ServiceMethods } from '../../ports/service.port';
import { idOf, type ServiceDefinition, type ServiceDependencies } from './service-definition';
import { USER_IDENTITY } from './users/user-identity';

/** Methods whose calls carry a query the service reads (`create` and custom methods take none from clients). */
const QUERYING_METHODS = ['find', 'get', 'update', 'patch', 'remove'] as const;

/**
 * Registers a definition's service on `app` over its store: the custom methods (local stores
 * only: a remote store forwards them to the server that owns them), then the hooks every
 * definition implies (hidden fields stripped from what leaves, data and queries validated by the
 * DTOs), then the definition's own hooks, which therefore see validated input: its `always`
 * hooks, then, where the store is local, its relations, its policy and its `storedHere` hooks
 * (the server a remote store forwards to runs its own). The policy's views also decide what each
 * real-time connection receives of the service's events, on every binding.
 */
export function registerService(
  app: Application,
  definition: ServiceDefinition,
  store: ServiceMethods,
  { storesLocally, idempotency, eventsFromStoringServer, ...dependencies }: ServiceDependencies,
): void {
  const service = storesLocally ? withCustomMethods(store, definition) : store;
  const views = policyViewsOf(app, definition);
  app.use(definition.path, service, {
    methods: [...definition.methods],
    events: definition.events ? [...definition.events] : undefined,
    visibility: views,
  });
  app.service(definition.path).hooks(definitionHooks(definition));
  const { always, storedHere } = definition.hooks ?? {};
  if (always) app.service(definition.path).hooks(always(dependencies));
  if (!storesLocally && eventsFromStoringServer)
    app.service(definition.path).hooks({ after: byMethod(definition.methods, heardFromStoringServer) });
  // Where the records are stored, once the caller is known (an around hook per method, so after
  // `always`'s authentication): a write with an Idempotency-Key happens once.
  if (idempotency && storesLocally)
    app.service(definition.path).hooks({ around: byMethod(definition.methods, idempotentCalls(idempotency)) });
  // Where the records are stored: related records (which the policy's views then show), the
  // policy, then the hooks that stamp what the server owns.
  if (definition.relations && storesLocally)
    app.service(definition.path).hooks(resolveRelations(definition.relations, definition.methods));
  if (views && storesLocally) app.service(definition.path).hooks(enforcePolicy(views, definition.methods));
  if (storedHere && storesLocally) app.service(definition.path).hooks(storedHere(dependencies));
  if (views && storesLocally) app.service(definition.path).hooks(answerPolicyErrors(views, definition.methods));
}

/** The hooks a definition implies, before the service's own. */
export function definitionHooks(definition: ServiceDefinition): HookMap {
  const { dto, methods } = definition;
  const checkQuery = validateQuery(dto.query, { idField: idOf(definition).field });
  const setByServer = definition.ownerField === undefined ? [] : [definition.ownerField];
  const before: Record<string, ((context: any) => Promise<void>)[]> = {};
  for (const method of QUERYING_METHODS) if (methods.includes(method)) before[method] = [checkQuery];
  if (methods.includes('create')) before.create = [validateData(dto.create, { setByServer })];
  if (methods.includes('update')) before.update.push(validateData(dto.update ?? dto.create, { setByServer }));
  if (methods.includes('patch')) before.patch.push(validateData(dto.patch, { partial: true }));
  for (const [method, methodDto] of Object.entries(dto.methods ?? {})) before[method] = [validateData(methodDto)];
  const hidden = definition.hiddenFields ?? [];
  return hidden.length > 0 ? { around: { all: [protectFields(...hidden)] }, before } : { before };
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

/** A call through a binding whose events come from the storing server: that server's event is the one heard. */
function heardFromStoringServer(context: { event: string | null }): void {
  context.event = null;
}
