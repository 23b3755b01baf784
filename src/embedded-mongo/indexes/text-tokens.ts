/** A small English stop-word list (mongod's is longer; these are the ones that matter for ranking). */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have he her his i if in into is it its of on or our she so such that ' +
    'the their then ' +
    'there these they this to was we were what when where which who will with you your'
  ).split(' '),
);

export interface TextOptions {
  readonly language: string;
  readonly caseSensitive?: boolean;
  readonly diacriticSensitive?: boolean;
}

/** Lowercases (unless case-sensitive) and strips diacritics (unless diacritic-sensitive). */
export function normalizeText(text: string, options: TextOptions): string {
  const cased = options.caseSensitive ? text : text.toLowerCase();
  return options.diacriticSensitive ? cased : cased.normalize('NFD').replace(/\p{Mn}/gu, '');
}

/** Words of a text (letters and digits), normalized; stop words kept for phrase matching elsewhere. */
export function words(text: string, options: TextOptions): string[] {
  return normalizeText(text, options).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Terms as the index stores them: stop words dropped and, for English, a naive suffix stemmer
 * ('running' -> 'run', 'cakes' -> 'cake') so that query terms meet the words they come from.
 * Language 'none' disables both, as in mongod.
 */
export function terms(text: string, options: TextOptions): string[] {
  const english = options.language === 'english' || options.language === 'en';
  return words(text, options)
    .filter((word) => !english || !STOP_WORDS.has(word.toLowerCase()))
    .map((word) => (english ? stem(word) : word));
}

/** Deliberately few suffixes: each extra rule splits more word families than it joins. */
const SUFFIXES = ['ings', 'ing', 'ies', 's'];

export function stem(word: string): string {
  if (word.length <= 3) return word;
  for (const suffix of SUFFIXES) {
    if (!word.endsWith(suffix) || word.length - suffix.length < 3) continue;
    let base = word.slice(0, -suffix.length);
    if (suffix === 'ies') base += 'y';
    else if (suffix === 's' && base.endsWith('s')) return word;
    // 'running' -> 'runn' -> 'run'
    if (base.length > 3 && base[base.length - 1] === base[base.length - 2] && !/[lsz]/.test(base[base.length - 1]))
      base = base.slice(0, -1);
    return base;
  }
  return word;
}
