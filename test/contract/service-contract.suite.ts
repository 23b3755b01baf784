import { describeEvents } from './contract-events';
import { describeKeepOnReplace } from './contract-keep-on-replace';
import { describeReadMethods } from './contract-methods-read';
import { describeWriteMethods } from './contract-methods-write';
import { describeMulti } from './contract-multi';
import { describePagination } from './contract-pagination';
import { describeQuerySyntax } from './contract-query-syntax';
import type { ContractServiceOptions, ContractTarget } from './contract-types';

export type { ContractService, ContractServiceOptions, ContractTarget } from './contract-types';

/**
 * The service contract every adapter passes (memory, DatabaseService, REST client): the
 * Feathers adapter-test list plus our stricter query validation. Each group builds fresh
 * services through `target.create` with the options it needs and closes them afterwards.
 *
 * Records are `{ name: string, age: number, group?: string }`. A target that goes over HTTP must
 * give the server a query hook that turns `age` values (and operands) back into numbers.
 * Ids are compared as strings; the id field is `options.id`, else `service.id`, else `_id` or
 * `id`, whichever the created records carry.
 */
export function runServiceContract(target: ContractTarget): void {
  const capabilities = { adapterParams: true, paginateParam: true, customId: true, ...target.capabilities };
  const idVariants: ContractServiceOptions[] = capabilities.customId ? [{}, { id: 'customid' }] : [{}];

  describe(`service contract: ${target.name}`, () => {
    for (const base of idVariants) {
      const label = base.id ? `custom id field '${base.id}'` : 'default id field';
      describe(`methods with ${label}`, () => {
        describeReadMethods(target, base);
        describeWriteMethods(target, base);
        describeKeepOnReplace(target, base);
      });
      describe(`multi with ${label}`, () => describeMulti(target, base));
    }
    describe('query syntax', () => describeQuerySyntax(target, {}));
    describe('pagination', () => describePagination(target, {}));
    describe('events', () => describeEvents(target, {}));
  });
}
