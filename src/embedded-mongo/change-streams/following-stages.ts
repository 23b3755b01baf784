import type { Document } from 'bson';
import { Aggregator, ProcessingMode } from 'mingo';
import { idFirst } from '../query/id-first';
import { matchView } from '../query/match-view';
import { mingoOptions } from '../query/mingo-options';
import { withOrderedProjects } from '../query/ordered-project';
import { typedPipeline } from '../query/typed-pipeline';
import { typedResult } from '../query/typed-stages';

/**
 * The stages after `$changeStream`, compiled once per stream and applied to each batch of events.
 * Events hold stored documents, so the input is cloned before any stage may reshape it.
 */
export function compileFollowingStages(stages: readonly Document[]): (events: Document[]) => Document[] {
  if (stages.length === 0) return (events) => events;
  const prepared = withOrderedProjects(typedPipeline([...stages]).stages);
  const aggregator = new Aggregator(matchView(prepared), {
    ...mingoOptions({}, prepared),
    processingMode: ProcessingMode.CLONE_INPUT,
  });
  return (events) =>
    aggregator
      .run<Document>(events.map((event) => matchView(event)))
      .filter((event) => event !== null) // `$redact` pruning a whole event leaves null in mingo
      .map((event) => idFirst(typedResult(event)));
}
