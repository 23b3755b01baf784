import type { Application } from '../app/application';
import type { HookRegistry } from '../hooks/hook-registry';
import { labelOf, type StageName } from './stage-label';

/** One layer of a method's chain as `npm run describe` shows it: a stage's, or hooks an application added. */
export interface CallLayer {
  /** The stage, or where hooks outside the stages were registered. */
  readonly stage: StageName | 'app hooks' | 'added hooks';
  /** What the layer is made of, in words. */
  readonly slot: string;
}

/**
 * The layers a call of `method` on `path` crosses, outermost first, as the app runs them: the app's
 * hooks, then the service's around hooks (its definition's stages, labelled, and any added later),
 * then its before / after / error hooks. An internal call (`external` false) skips the stages that
 * serve transports only. Consecutive layers of one stage are one entry.
 */
export function callLayers(app: Application, path: string, method: string, external: boolean): CallLayer[] {
  const entry = app.lookup(path);
  if (!entry) throw new Error(`No service at '${path}'`);
  const layers: CallLayer[] = [];
  const add = (layer: CallLayer) => {
    const last = layers.at(-1);
    // A stage made of several layers (a hook map's) is one entry.
    const sameStage = last?.stage === layer.stage && layer.stage !== 'app hooks' && layer.stage !== 'added hooks';
    if (!sameStage) layers.push(layer);
  };
  const appHooks = hookNames(app.appLevelHooks(), method);
  if (appHooks) add({ stage: 'app hooks', slot: appHooks });
  for (const hook of entry.hooks.collect('around', method)) {
    const label = labelOf(hook, method);
    if (label === undefined) add({ stage: 'added hooks', slot: `around: ${hook.name || 'anonymous'}` });
    else if (external || !label.externalOnly) add({ stage: label.stage, slot: label.slot });
  }
  const regular = hookNames(entry.hooks, method, ['before', 'after', 'error']);
  if (regular) add({ stage: 'added hooks', slot: regular });
  return layers;
}

/** The hooks of a registry for one method, by kind and function name; empty when it has none. */
export function hookNames(
  registry: HookRegistry,
  method: string,
  kinds: readonly ('around' | 'before' | 'after' | 'error')[] = ['around', 'before', 'after', 'error'],
): string {
  const named = (hooks: readonly { name: string }[]) => hooks.map((hook) => hook.name || 'anonymous').join(' ');
  return kinds
    .map(
      (kind) => [kind, kind === 'error' ? registry.collectErrorHooks(method) : registry.collect(kind, method)] as const,
    )
    .filter(([, hooks]) => hooks.length > 0)
    .map(([kind, hooks]) => `${kind}: ${named(hooks)}`)
    .join('; ');
}
