/** Options the contract suite asks a target to build a service with (a subset of `ServiceOptions`). */
export interface ContractServiceOptions {
  id?: string;
  paginate?: { default?: number; max?: number } | false;
  multi?: boolean | string[];
  events?: string[];
  operators?: string[];
  /** Fields `update` keeps (see `ServiceOptions.keepOnReplace`). */
  keepOnReplace?: string[];
  /** Update operators patch data may carry. */
  updateOperators?: string[];
}

/** The service under test, as the caller sees it (hooked, with events). */
export interface ContractService {
  find: any;
  get: any;
  create: any;
  update: any;
  patch: any;
  remove: any;
  on?: (event: string, listener: (...args: any[]) => void) => unknown;
  off?: (...args: any[]) => unknown;
}

export interface ContractTarget {
  /** Shown in test names. */
  name: string;
  /** Builds a fresh EMPTY service with these options, registered in an app (hooked service with events). */
  create(options: ContractServiceOptions): Promise<{ service: ContractService; close(): Promise<void> }>;
  /**
   * Which optional case groups apply. Defaults true. REST clients can't pass
   * params.adapter/params.paginate over the wire.
   */
  capabilities?: { adapterParams?: boolean; paginateParam?: boolean; customId?: boolean };
}
