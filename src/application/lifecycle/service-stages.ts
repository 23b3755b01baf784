import { authenticate, isAuthenticateHook } from '../authentication/authenticate.hook';
import { setOwner } from '../authentication/owner.hooks';
import { HookRegistry } from '../hooks/hook-registry';
import type { AroundHook, HookMap } from '../hooks/hook-types';
import { protectFields } from '../hooks/protect-fields.hook';
import { levelChain } from '../hooks/run-hooks';
import { idempotentCalls } from '../idempotency/idempotent-calls.hook';
import type { IdempotencyRecords } from '../idempotency/idempotency-records';
import { policyScope, policyView } from '../policy/enforce-policy.hook';
import type { PolicyViews } from '../policy/policy-views';
import { resolveRelations } from '../relations/resolve-relations.hook';
import { idOf, type HookDependencies, type ServiceDefinition } from '../services/service-definition';
import { validateData } from '../validation/validate-data.hook';
import { validateQuery } from '../validation/validate-query.hook';
import { hookNames } from './call-layers';
import type { StageName } from './stage-label';

/** What building a definition's stages needs. */
export interface StageInput {
  readonly definition: ServiceDefinition;
  /** Every method the service runs through hooks: those it lists for transports, and the store's others. */
  readonly hookedMethods: readonly string[];
  /** The policy's views of the service's records, when the definition has a policy. */
  readonly views?: PolicyViews;
  readonly idempotency?: IdempotencyRecords;
  readonly hookDependencies: HookDependencies;
}

/** A stage's work for one method: its layers (outermost first) and what filled its slot, in words. */
export interface StageWork {
  readonly layers: readonly AroundHook[];
  readonly slot: string;
  /** The layers require a credential (the OpenAPI document marks the method). */
  readonly authenticates?: boolean;
}

/** One named stage of a service call, as data: `npm run describe` and docs/lifecycle.md read the same list. */
export interface ServiceStage {
  readonly name: StageName;
  /** Why the stage is there, in one line. */
  readonly why: string;
  /** The files that implement it. */
  readonly files: readonly string[];
  /** `storing server`: a binding to another server skips it, since that server runs it. */
  readonly runsOn: 'every binding' | 'storing server';
  /** `external calls`: internal calls (the server's own, no `provider`) skip it. */
  readonly calls: 'every call' | 'external calls';
  /** `listed`: only the methods the definition lists (`methods`); `every`: the store's internal ones too. */
  readonly methods: 'listed' | 'every';
  /**
   * The stage for one definition: per method (every method the service runs through hooks, listed
   * or internal), its work, or undefined when the slot is empty for that method.
   */
  build(input: StageInput): (method: string) => StageWork | undefined;
}

/** Methods whose calls carry a query the service reads (`create` and custom methods take none from clients). */
const QUERYING_METHODS: ReadonlySet<string> = new Set(['find', 'get', 'update', 'patch', 'remove']);
const READING_METHODS: ReadonlySet<string> = new Set(['find', 'get']);

/** Every stage of a service call, outermost first: on the way in top to bottom, on the way out bottom to top. */
export const SERVICE_STAGES: readonly ServiceStage[] = [
  {
    name: 'authenticate',
    why: 'who is calling: the credential checked, params.user set; 401 without one where the slot asks for it',
    files: ['src/application/authentication/authenticate.hook.ts'],
    runsOn: 'every binding',
    calls: 'every call',
    methods: 'every',
    build: ({ definition }) => {
      const settings = definition.authentication;
      if (!settings) return () => undefined;
      const strategies = settings.strategies ?? ['jwt'];
      const hook = authenticate(...strategies);
      const open = new Set(settings.publicMethods ?? []);
      return (method) =>
        open.has(method) ? undefined : { layers: [hook], slot: strategies.join(', '), authenticates: true };
    },
  },
  {
    name: 'idempotency',
    why: 'a write with an Idempotency-Key happens once; a repetition gets the first answer',
    files: ['src/application/idempotency/idempotent-calls.hook.ts'],
    runsOn: 'storing server',
    calls: 'external calls',
    methods: 'listed',
    build: ({ idempotency }) => {
      if (!idempotency) return () => undefined;
      const hook = idempotentCalls(idempotency);
      return (method) => (READING_METHODS.has(method) ? undefined : { layers: [hook], slot: 'Idempotency-Key' });
    },
  },
  {
    name: 'hide',
    why: 'hidden fields never leave the server, whatever the inner stages answer',
    files: ['src/application/hooks/protect-fields.hook.ts'],
    runsOn: 'every binding',
    calls: 'every call',
    methods: 'every',
    build: ({ definition }) => {
      const hidden = definition.hiddenFields ?? [];
      if (hidden.length === 0) return () => undefined;
      const hook = protectFields(...hidden);
      return () => ({ layers: [hook], slot: hidden.join(', ') });
    },
  },
  {
    name: 'validate',
    why: 'data and query checked against the DTOs before any other code reads them (400 naming the fields)',
    files: ['src/application/validation/validate-query.hook.ts', 'src/application/validation/validate-data.hook.ts'],
    runsOn: 'every binding',
    calls: 'every call',
    methods: 'listed',
    build: ({ definition }) => {
      const { dto } = definition;
      const checkQuery = validateQuery(dto.query, { idField: idOf(definition).field });
      const setByServer = definition.ownerField === undefined ? [] : [definition.ownerField];
      const dataDto = (method: string) =>
        method === 'create'
          ? dto.create
          : method === 'update'
            ? (dto.update ?? dto.create)
            : method === 'patch'
              ? dto.patch
              : dto.methods?.[method];
      return (method) => {
        const checks: ((context: any) => Promise<void>)[] = [];
        const named: string[] = [];
        if (QUERYING_METHODS.has(method)) {
          checks.push(checkQuery);
          named.push(`query ${dto.query.name}`);
        }
        const data = dataDto(method);
        if (data) {
          // A patch names only what it changes; the owner of a new or replaced record is the server's to set.
          const options =
            method === 'patch' ? { partial: true } : method === 'create' || method === 'update' ? { setByServer } : {};
          checks.push(validateData(data, options));
          named.push(`data ${data.name}`);
        }
        if (checks.length === 0) return undefined;
        const layer: AroundHook = async (context, next) => {
          for (const check of checks) await check(context);
          return next();
        };
        return { layers: [layer], slot: named.join('; ') };
      };
    },
  },
  {
    name: 'hooks',
    why: "the definition's own Feathers-style hooks (around, before, after, error), on every binding",
    files: ['src/application/hooks/run-hooks.ts'],
    runsOn: 'every binding',
    calls: 'every call',
    methods: 'every',
    build: ({ definition, hookDependencies, hookedMethods }) =>
      hookMapStage(hookedMethods, definition.hooks?.always?.(hookDependencies)),
  },
  {
    name: 'view',
    why: 'the answer shows what the caller may read (policy fields, computed fields); a refused write becomes a 403',
    files: ['src/application/policy/enforce-policy.hook.ts', 'src/application/policy/policy-views.ts'],
    runsOn: 'storing server',
    calls: 'external calls',
    methods: 'listed',
    build: ({ views, definition }) => {
      if (!views) return () => undefined;
      const hook = policyView(views);
      const computed = Object.keys(definition.computedFields ?? {});
      const slot = computed.length > 0 ? `policy; computed ${computed.join(', ')}` : 'policy';
      return () => ({ layers: [hook], slot });
    },
  },
  {
    name: 'relations',
    why: 'related records attached in one batched read per page, through the target service as the caller',
    files: ['src/application/relations/resolve-relations.hook.ts'],
    runsOn: 'storing server',
    calls: 'every call',
    methods: 'listed',
    build: ({ definition }) => {
      if (!definition.relations) return () => undefined;
      const hook = resolveRelations(definition.relations);
      const slot = Object.entries(definition.relations)
        .map(([name, relation]) => `${name} (${relation.service} by ${relation.field})`)
        .join(', ');
      return () => ({ layers: [hook], slot });
    },
  },
  {
    name: 'scope',
    why: "the caller's policy joins the store query (pages, totals and multi writes see only permitted records)",
    files: ['src/application/policy/enforce-policy.hook.ts'],
    runsOn: 'storing server',
    calls: 'external calls',
    methods: 'listed',
    build: ({ views }) => {
      if (!views) return () => undefined;
      const hook = policyScope(views);
      return () => ({ layers: [hook], slot: 'policy' });
    },
  },
  {
    name: 'store',
    why: 'the server-owned stamps (owner, counters, hashes), then the store method itself',
    files: ['src/application/authentication/owner.hooks.ts', 'src/application/hooks/run-hooks.ts'],
    runsOn: 'storing server',
    calls: 'every call',
    methods: 'every',
    build: ({ definition, hookDependencies, hookedMethods }) => {
      const ownHooks = hookMapStage(hookedMethods, definition.hooks?.storedHere?.(hookDependencies));
      const owner = definition.ownerField;
      if (owner === undefined) return ownHooks;
      // A new or replaced record belongs to the caller, never to whoever the client names.
      const stampOwner = setOwner(owner);
      const ownerLayer: AroundHook = (context, next) => {
        stampOwner(context);
        return next();
      };
      return (method) => {
        const own = ownHooks(method);
        if (method !== 'create' && method !== 'update') return own;
        return {
          layers: [ownerLayer, ...(own?.layers ?? [])],
          slot: own ? `owner ${owner}; ${own.slot}` : `owner ${owner}`,
          authenticates: own?.authenticates,
        };
      };
    },
  },
];

/** A hook map of a definition's (`hooks.always`, `hooks.storedHere`) as a stage: per method, its chain of layers. */
function hookMapStage(
  hookedMethods: readonly string[],
  map: HookMap | undefined,
): (method: string) => StageWork | undefined {
  if (!map) return () => undefined;
  // Method keys as `app.service(path).hooks(...)` accepts them: any method the service runs through hooks.
  const registry = new HookRegistry(() => hookedMethods);
  registry.register(map);
  return (method) => {
    const layers = levelChain(registry, method);
    if (layers.length === 0) return undefined;
    const authenticates = [...registry.collect('around', method), ...registry.collect('before', method)].some(
      isAuthenticateHook,
    );
    return { layers, slot: hookNames(registry, method), authenticates };
  };
}
