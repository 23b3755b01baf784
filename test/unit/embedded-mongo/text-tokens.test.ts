import { stem, terms } from '../../../src/embedded-mongo/indexes/text-tokens';

describe('text tokens', () => {
  test('lowercases, strips diacritics and stop words, stems naively', () => {
    expect(terms('The Running of the Crêpes', { language: 'english' })).toEqual(['run', 'crepe']);
    expect(terms('The Running', { language: 'none' })).toEqual(['the', 'running']);
    expect(stem('stories')).toBe('story');
    expect(stem('glass')).toBe('glass');
  });
});
