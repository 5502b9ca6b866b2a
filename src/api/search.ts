// `q=` on the registry and the stablecoins: a full-text index (MiniSearch) over each record's
// fields, made once per record list (on the first query, then kept with the list) and ranked.
// The registry reads the same rule from its built inverted index instead (text-index.ts, held to
// this one's answers by test/data/registry-query.test.ts).
//
// The rule, as /openapi.json states it: the text is cut into words; each word is folded (NFKD,
// marks removed, lower case) and letter-only words of more than three letters are reduced to their
// stem (Porter: "treasuries" and "treasury" are one word). Every word of the query must match a
// word of the record, as a word or its beginning ("CH13" finds ISIN CH1306117073, "euro" finds
// "European"); words of six letters or more also match with one letter wrong. Ranking: relevance
// (BM25) with each field weighted (names first, then issuer, then kind, ledgers and identifiers,
// then the description); a record with a whole field equal to the query comes first; ties keep
// the list's order.
//
// Bounded (issue #37): a query has at most MAX_SEARCH_WORDS words (a clear 400 past that, through
// the parameter's `check`), and a one-letter word other than the last matches only itself, never
// as the beginning of every word that starts with it: 49 one-letter words once cost 250 normal
// searches.
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { foldText } from '../dataset/registry-index.ts';

export interface SearchSpec<T> {
  /** The text of each field, and its weight in the ranking. */
  fields: Record<string, { text(d: T): string; boost: number }>;
  /** Values that, equal to the whole query (folded), put the record first. */
  whole(d: T): readonly (string | null | undefined)[];
}

export interface SearchIndex {
  /** Positions (in the list indexed) of the matching records, best first. */
  search(q: string): number[];
}

/** One word as the index and the query compare it. */
export function searchTerm(word: string): string {
  const folded = foldText(word);
  return folded.length > 3 && /^\p{L}+$/u.test(folded) ? stemmer(folded) : folded;
}

/** Words of a query searched together; more is refused (each word is one more index walk). */
export const MAX_SEARCH_WORDS = 8;
/** How MiniSearch cuts text into words (its default tokenizer). */
const WORD_BREAK = /[\n\r\p{Z}\p{P}]+/u;

/** The parameter check of `q=`: null when the text is searchable, else why not (a 400). */
export function searchTextProblem(q: string): string | null {
  const words = q.split(WORD_BREAK).filter(Boolean).length;
  return words > MAX_SEARCH_WORDS
    ? `has ${words} words; at most ${MAX_SEARCH_WORDS} are searched together (every word must match), so leave some out`
    : null;
}

/** Above any relevance score: the record with a whole field equal to the query comes first. */
const WHOLE_FIELD_BOOST = 1_000;

export function searchIndex<T>(records: readonly T[], spec: SearchSpec<T>): SearchIndex {
  const names = Object.keys(spec.fields);
  const index = new MiniSearch<{ id: number }>({
    fields: names,
    storeFields: [],
    extractField: (doc, field) =>
      field === 'id' ? String(doc.id) : spec.fields[field]!.text(records[doc.id]!),
    processTerm: (term) => searchTerm(term) || null,
  });
  index.addAll(records.map((_, id) => ({ id })));
  const wholes = records.map(
    (r) => new Set(spec.whole(r).flatMap((v) => (v ? [foldText(v.trim())] : []))),
  );
  const boost = Object.fromEntries(names.map((n) => [n, spec.fields[n]!.boost]));
  return {
    search(q) {
      const folded = foldText(q.trim());
      const hits = index.search(q, {
        combineWith: 'AND',
        // A one-letter word would begin most of the index's words: only the last word of the
        // query (the one being typed) is matched as a beginning when it has one letter.
        prefix: (term, i, terms) => term.length > 1 || i === terms.length - 1,
        fuzzy: (term) => (term.length >= 6 ? 1 : false),
        boost,
        boostDocument: (id) => (wholes[id as number]!.has(folded) ? WHOLE_FIELD_BOOST : 1),
      });
      return hits
        .sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number))
        .map((h) => h.id as number);
    },
  };
}

/** Indexes made once per record list (the current release's and one older one at a time). */
export function searchIndexes<T>(spec: SearchSpec<T>): (records: readonly T[]) => SearchIndex {
  const made = new WeakMap<readonly T[], SearchIndex>();
  return (records) => {
    let index = made.get(records);
    if (!index) made.set(records, (index = searchIndex(records, spec)));
    return index;
  };
}
