import type { AroundHook } from '../hooks/hook-types';

/**
 * The named stages of a service call, in the order a call crosses them (docs/lifecycle.md). The
 * transport's `decode` comes before them and `publish` and the transport's `encode` after.
 */
export const STAGE_NAMES = [
  'authenticate',
  'idempotency',
  'hide',
  'validate',
  'hooks',
  'view',
  'relations',
  'scope',
  'store',
] as const;

export type StageName = (typeof STAGE_NAMES)[number];

/** What a layer of a service's chain is: its stage, what the definition put in the stage's slot, whom it serves. */
export interface StageLabel {
  readonly stage: StageName;
  /** What fills the slot for this method, in words (`npm run describe` prints it). */
  readonly slot: string;
  /** True for a stage that only calls from transports cross; internal calls are the server's own. */
  readonly externalOnly: boolean;
  /** True where the layer requires a credential (an `authenticate` hook among a hook map's): OpenAPI reads it. */
  readonly authenticates?: boolean;
}

/** A hook's stage, and its label per method (one hook may serve several methods). */
interface Labels {
  readonly label: StageLabel;
  readonly byMethod: Map<string, StageLabel>;
}

const LABELS = new WeakMap<AroundHook, Labels>();

/** The hook, remembered as a layer of `label.stage`; with `method`, the label is that method's. */
export function labelled(label: StageLabel, hook: AroundHook, method?: string): AroundHook {
  const known = LABELS.get(hook);
  const labels = known?.label.stage === label.stage ? known : { label, byMethod: new Map<string, StageLabel>() };
  if (method !== undefined) labels.byMethod.set(method, label);
  LABELS.set(hook, labels);
  return hook;
}

/** The stage a hook is a layer of, for `method`; undefined for hooks an application registered itself. */
export function labelOf(hook: AroundHook, method: string): StageLabel | undefined {
  const labels = LABELS.get(hook);
  return labels && (labels.byMethod.get(method) ?? labels.label);
}

/** Whether an internal call (no `provider`) skips the hook: decided once, when the app builds a method's chains. */
export function servesExternalCallsOnly(hook: AroundHook): boolean {
  return LABELS.get(hook)?.label.externalOnly === true;
}
