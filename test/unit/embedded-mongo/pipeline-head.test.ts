import { Long } from 'bson';
import { countingGroup } from '../../../src/embedded-mongo/query/count-group';
import { foldPipelineHead } from '../../../src/embedded-mongo/query/pipeline-head';

describe('aggregation pipeline head folded into a find', () => {
  test('$match $sort $skip $limit and a final simple $project become one find', () => {
    const head = foldPipelineHead(
      [
        { $match: { a: 1 } },
        { $sort: { b: -1, _id: 1 } },
        { $skip: 5 },
        { $limit: new Long(10) },
        { $project: { b: 1, _id: 0 } },
      ],
      false,
    );
    expect(head).toEqual({
      filter: { a: 1 },
      sort: [
        ['b', -1],
        ['_id', 1],
      ],
      skip: 5,
      limit: 10,
      projection: { b: 1, _id: 0 },
      length: 5,
    });
  });

  test('stops at the first stage a find cannot answer the same way', () => {
    expect(foldPipelineHead([{ $match: {} }, { $limit: 0 }], false).length).toBe(1);
    expect(foldPipelineHead([{ $match: {} }, { $skip: -1 }, { $limit: 2 }], false).length).toBe(1);
    expect(foldPipelineHead([{ $match: {} }, { $sort: { s: { $meta: 'textScore' } } }], false).length).toBe(1);
    expect(foldPipelineHead([{ $match: {} }, { $sort: {} }], false).length).toBe(1);
    expect(foldPipelineHead([{ $match: {} }, { $limit: 2 }, { $sort: { a: 1 } }], false).length).toBe(2);
    // A $project is folded only as the last stage, and only as plain inclusion or exclusion.
    expect(foldPipelineHead([{ $match: {} }, { $project: { a: 1 } }, { $limit: 1 }], false).length).toBe(1);
    expect(foldPipelineHead([{ $match: {} }, { $project: { a: '$b' } }], false).length).toBe(1);
    expect(foldPipelineHead([{ $match: {} }, { $project: { a: 1, b: 0 } }], false).length).toBe(1);
    expect(foldPipelineHead([{ $match: {} }, { $project: { a: 1, 'a.b': 1 } }], false).length).toBe(1);
    expect(foldPipelineHead([{ $match: {} }, { $project: {} }], false).length).toBe(1);
  });

  test('without a leading $match the head folds unless a hint is given (it belongs to the $match)', () => {
    expect(foldPipelineHead([{ $sort: { a: 1 } }, { $limit: 3 }], false)).toMatchObject({
      filter: undefined,
      length: 2,
    });
    expect(foldPipelineHead([{ $sort: { a: 1 } }, { $limit: 3 }], true).length).toBe(0);
    expect(foldPipelineHead([{ $group: { _id: null } }], false).length).toBe(0);
  });
});

describe('counting $group', () => {
  test("answers the driver's countDocuments stage from a number of matches", () => {
    const group = countingGroup({ $group: { _id: 1, n: { $sum: 1 } } });
    expect(group?.(7)).toEqual([{ _id: 1, n: 7 }]);
    expect(group?.(0)).toEqual([]);
    expect(countingGroup({ $group: { _id: null, n: { $sum: 2 }, m: { $sum: 1 } } })?.(3)).toEqual([
      { _id: null, n: 6, m: 3 },
    ]);
  });

  test('leaves any other $group to mingo', () => {
    expect(countingGroup({ $group: { _id: '$a', n: { $sum: 1 } } })).toBeUndefined();
    expect(countingGroup({ $group: { _id: 1, n: { $sum: '$a' } } })).toBeUndefined();
    expect(countingGroup({ $group: { _id: 1, n: { $sum: 0.5 } } })).toBeUndefined();
    expect(countingGroup({ $group: { _id: 1, n: { $avg: 1 } } })).toBeUndefined();
    expect(countingGroup({ $count: 'n' })).toBeUndefined();
  });
});
