import { checkPatchData, type PatchRules } from '../../application/adapter/patch-data';
import { copyWith } from '../../domain/plain-record';

export type UpdateDocument = Record<string, Record<string, unknown>>;

/**
 * Turns patch data (checked by the rules every store shares) into a MongoDB update document:
 * assignments become `$set`, allowed operators are kept. Returns `{}` when nothing is left to do.
 */
export function patchToUpdate(data: Record<string, unknown>, rules: PatchRules): UpdateDocument {
  const { set, operators } = checkPatchData(data, rules);
  return Object.keys(set).length > 0 ? copyWith(operators, { $set: set }) : { ...operators };
}
