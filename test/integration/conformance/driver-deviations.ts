/**
 * Cases the Node driver (mongodb 7.x) cannot pass whatever the server does, so nobody chases
 * them in the server: the report labels them. Keyed by `${file} > ${description}`.
 */
const BYPASS_FALSE_DROPPED =
  'the Node driver only sends bypassDocumentValidation when it is true (aggregate, ' +
  'findAndModify, bulk insert), so the command never carries false';

export const DRIVER_DEVIATIONS: ReadonlyMap<string, string> = new Map([
  ['bypassDocumentValidation.json > Aggregate with $out passes bypassDocumentValidation: false', BYPASS_FALSE_DROPPED],
  ['bypassDocumentValidation.json > FindOneAndReplace passes bypassDocumentValidation: false', BYPASS_FALSE_DROPPED],
  ['bypassDocumentValidation.json > FindOneAndUpdate passes bypassDocumentValidation: false', BYPASS_FALSE_DROPPED],
  ['bypassDocumentValidation.json > InsertMany passes bypassDocumentValidation: false', BYPASS_FALSE_DROPPED],
]);
