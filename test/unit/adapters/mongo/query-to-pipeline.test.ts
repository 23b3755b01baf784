import {
  buildCountPipeline,
  buildPipeline,
  isServiceStage,
  queryStages,
  selectToProjection,
} from '../../../../src/adapters/mongo/query-to-pipeline';

describe('query to pipeline', () => {
  it('builds the stages in the order $match, $sort (with an _id tiebreak), $skip, $limit', () => {
    expect(queryStages({ a: 1 }, { $sort: { a: -1 }, $skip: 2, $limit: 3 })).toEqual([
      { $match: { a: 1 } },
      { $sort: { a: -1, _id: 1 } },
      { $skip: 2 },
      { $limit: 3 },
    ]);
    expect(queryStages({}, {})).toEqual([{ $match: {} }]);
    expect(queryStages({}, { $sort: { _id: -1 } })).toEqual([{ $match: {} }, { $sort: { _id: -1 } }]);
  });

  it('makes $limit: 0 a stage nothing passes (MongoDB refuses $limit: 0)', () => {
    expect(queryStages({}, { $limit: 0 })).toEqual([{ $match: {} }, { $match: { _id: { $in: [] } } }]);
  });

  it('projects $select, always keeping the id, hiding _id for custom ids, without path collisions', () => {
    expect(selectToProjection(['a', 'a.b', 'c'], '_id')).toEqual({ _id: 1, a: 1, c: 1 });
    expect(selectToProjection(['name'], 'customid')).toEqual({ customid: 1, name: 1, _id: 0 });
    expect(selectToProjection(['name', '_id'], 'customid')).toEqual({ customid: 1, name: 1, _id: 1 });
    expect(selectToProjection(undefined, '_id')).toBeUndefined();
  });

  it('appends params.pipeline, or puts the query stages at { $service: {} }, with $project last', () => {
    const lookup = { $lookup: { from: 'users', localField: 'userId', foreignField: '_id', as: 'user' } };
    expect(buildPipeline({ a: 1 }, { $limit: 1 }, { _id: 1, user: 1 }, [lookup])).toEqual([
      { $match: { a: 1 } },
      { $limit: 1 },
      lookup,
      { $project: { _id: 1, user: 1 } },
    ]);
    expect(buildPipeline({ a: 1 }, {}, undefined, [lookup, { $service: {} }, { $unwind: '$user' }])).toEqual([
      lookup,
      { $match: { a: 1 } },
      { $unwind: '$user' },
    ]);
    expect(isServiceStage({ $service: {} })).toBe(true);
    expect(isServiceStage({ $service: {}, $x: 1 })).toBe(false);
  });

  it('counts through the same stages without sort, skip, limit and projection', () => {
    expect(buildCountPipeline({ a: 1 }, [{ $unwind: '$t' }])).toEqual([
      { $match: { a: 1 } },
      { $unwind: '$t' },
      { $count: 'total' },
    ]);
    expect(buildCountPipeline({}, [{ $service: {} }])).toEqual([{ $match: {} }, { $count: 'total' }]);
  });

  it('refuses a second $service stage', () => {
    expect(() => buildPipeline({}, {}, undefined, [{ $service: {} }, { $service: {} }])).toThrow(
      expect.objectContaining({ code: 400 }),
    );
  });
});
