import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { normalizeText, terms, type TextOptions } from '../indexes/text-tokens';
import type { ReadSource } from './read-source';

/** Documents matching a `$text` query, with their relevance scores. */
export interface TextMatches {
  readonly docs: Document[];
  readonly scores: Map<Document, number>;
  readonly indexName: string;
}

interface ParsedSearch {
  readonly words: string[];
  readonly negatedWords: string[];
  readonly phrases: string[];
  readonly negatedPhrases: string[];
}

/**
 * Runs `$text: { $search, $language, $caseSensitive, $diacriticSensitive }`: any positive term
 * selects a document (via the text index's postings), every phrase must occur, and a negated
 * term or phrase excludes it. Scores follow mongod's weighting (see TextIndex.score).
 */
export function textSearch(store: ReadSource | undefined, spec: unknown): TextMatches {
  const index = store?.secondary?.textIndex();
  if (!index) throw new CommandError('IndexNotFound', 'text index required for $text query');
  if (spec === null || typeof spec !== 'object' || typeof (spec as Document).$search !== 'string') {
    throw new CommandError('BadValue', '$text requires a $search string');
  }
  const options = spec as Document;
  const language = typeof options.$language === 'string' ? options.$language : index.language;
  const folded: TextOptions = { language };
  const sensitive: TextOptions = {
    language,
    caseSensitive: options.$caseSensitive === true,
    diacriticSensitive: options.$diacriticSensitive === true,
  };
  const search = parseSearch(options.$search as string);
  const positive = new Set([...search.words, ...search.phrases].flatMap((text) => terms(text, folded)));
  const positiveSensitive = new Set([...search.words, ...search.phrases].flatMap((text) => terms(text, sensitive)));
  const negated = new Set(search.negatedWords.flatMap((text) => terms(text, folded)));
  const strict = sensitive.caseSensitive || sensitive.diacriticSensitive;
  const docs: Document[] = [];
  const scores = new Map<Document, number>();
  for (const doc of index.documentsWithAny(positive)) {
    const texts = index.fields.flatMap((field) => index.fieldTexts(doc, field.path));
    const docTerms = new Set(texts.flatMap((text) => terms(text, folded)));
    if ([...negated].some((term) => docTerms.has(term))) continue;
    if (strict && !texts.some((text) => terms(text, sensitive).some((term) => positiveSensitive.has(term)))) continue;
    const normalized = texts.map((text) => normalizeText(text, sensitive));
    const contains = (phrase: string): boolean =>
      normalized.some((text) => text.includes(normalizeText(phrase, sensitive)));
    if (!search.phrases.every(contains) || search.negatedPhrases.some(contains)) continue;
    docs.push(doc);
    scores.set(doc, index.score(doc, positive, folded));
  }
  return { docs, scores, indexName: index.name };
}

/** Splits a search string into words, `-negated` words, `"phrases"` and `-"negated phrases"`. */
function parseSearch(search: string): ParsedSearch {
  const phrases: string[] = [];
  const negatedPhrases: string[] = [];
  const rest = search.replace(/(-?)"([^"]*)"?/g, (_match, minus: string, phrase: string) => {
    if (phrase.trim() !== '') (minus ? negatedPhrases : phrases).push(phrase);
    return ' ';
  });
  const tokens = rest.split(/\s+/).filter((token) => token !== '' && token !== '-');
  return {
    words: tokens.filter((token) => !token.startsWith('-')),
    negatedWords: tokens.filter((token) => token.startsWith('-')).map((token) => token.slice(1)),
    phrases,
    negatedPhrases,
  };
}
