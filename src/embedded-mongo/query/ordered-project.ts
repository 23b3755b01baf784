import type { Document } from 'bson';
import { $project } from 'mingo/operators/pipeline';
import { fieldOrder } from './field-order';

/** The name `$project` runs under in mingo, so that the server's version replaces mingo's. */
export const ORDERED_PROJECT = '$orderedProject';

type PipelineOperator = typeof $project;

/**
 * mingo's `$project` with mongod's field order (see field-order.ts). Each output is put in the
 * order of its own input: mingo's lazy sequence passes one document through every step before the
 * next, so the input seen last is the one being projected.
 */
export const orderedProject: PipelineOperator = (collection, expr, options) => {
  // Anything but a document is mingo's to refuse, with its own message.
  if (expr === null || typeof expr !== 'object' || Array.isArray(expr)) return $project(collection, expr, options);
  const order = fieldOrder(expr as Document);
  let input: Document = {};
  collection.map((doc) => (input = doc as Document));
  return $project(collection, expr, options).map((doc) => order(doc as Document, input));
};

/** Renames `$project` stages, also inside `$facet`, `$lookup` and `$unionWith` sub-pipelines. */
export function withOrderedProjects(stages: readonly Document[]): Document[] {
  return stages.map((stage) => {
    const [name] = Object.keys(stage);
    const spec = stage[name];
    if (name === '$project') return { [ORDERED_PROJECT]: spec };
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return stage;
    if (name === '$facet') {
      return {
        $facet: Object.fromEntries(
          Object.entries(spec as Document).map(([facet, inner]) => [
            facet,
            Array.isArray(inner) ? withOrderedProjects(inner) : inner,
          ]),
        ),
      };
    }
    if ((name === '$lookup' || name === '$unionWith') && Array.isArray((spec as Document).pipeline)) {
      return { [name]: { ...spec, pipeline: withOrderedProjects((spec as Document).pipeline as Document[]) } };
    }
    return stage;
  });
}
