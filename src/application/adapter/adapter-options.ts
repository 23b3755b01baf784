import { copyWith } from '../../domain/plain-record';
import type { ServiceOptions } from '../../ports/service-options';
import type { Params } from '../../ports/service-params';

export type ResolvedServiceOptions<O extends ServiceOptions> = O &
  Required<Pick<ServiceOptions, 'id' | 'multi' | 'filters' | 'operators' | 'events'>> & {
    paginate: ServiceOptions['paginate'];
  };

/** Options for one call: the service's, with `params.paginate` and then `params.adapter` on top. */
export function optionsForCall<O extends ServiceOptions>(
  options: ResolvedServiceOptions<O>,
  params: Params,
): ResolvedServiceOptions<O> {
  const resolved = copyWith(options, { paginate: params.paginate !== undefined ? params.paginate : options.paginate });
  // `params.adapter` is untyped (any option of any store), so the copy is only known to be the options by contract.
  return (params.adapter ? copyWith(resolved, params.adapter) : resolved) as ResolvedServiceOptions<O>;
}

/**
 * One option as `optionsForCall` gives it, for the per-call paths that need one or two: the same
 * order (`params.adapter`, then `params.paginate`, then the service's) without copying them all.
 */
export function optionForCall<O extends ServiceOptions, K extends keyof ResolvedServiceOptions<O>>(
  options: ResolvedServiceOptions<O>,
  params: Params,
  name: K,
): ResolvedServiceOptions<O>[K] {
  const adapter = params.adapter as Partial<ResolvedServiceOptions<O>> | undefined | null;
  if (adapter !== undefined && adapter !== null && Object.hasOwn(adapter, name))
    return adapter[name] as ResolvedServiceOptions<O>[K];
  if (name === 'paginate' && params.paginate !== undefined) return params.paginate as ResolvedServiceOptions<O>[K];
  return options[name];
}

/** `find` always; `get`/`update` never; others when `multi` is true or lists the method. */
export function allowsMulti(method: string, multi: boolean | readonly string[] | undefined): boolean {
  if (method === 'find') return true;
  if (method === 'get' || method === 'update') return false;
  if (multi === true) return true;
  return Array.isArray(multi) && multi.includes(method);
}
