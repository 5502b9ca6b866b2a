// The inverted index behind `q=` (issue #37): for each word, the sorted positions of the records
// holding it in each field, with its count there, each record's field lengths and their running
// averages, and the records' whole-field values. Made at build (written with the registry's query
// index, dataset/registry-query-file.ts) or, for a small or older list, on first use.
//
// The rule and the ranking are MiniSearch's as search.ts configured it (the reference the test
// compares against, test/unit/text-index.test.ts): the same words (split where MiniSearch splits,
// folded and stemmed by searchTerm), the same matches (every query word; as itself, as the
// beginning of longer words, and from six letters with one letter wrong) and the same BM25 score
// (each contribution in the same formula, summed in the same order: word of the query, then the
// word of the record, then field). What differs is the cost: the records every query word can
// match are intersected first, from the rarest word, and only those are scored, so a query costs
// what it matches, not what the list holds.
import SearchableMap from 'minisearch/SearchableMap';
import { foldText } from '../dataset/registry-index.ts';
import type { TextIndexData } from '../dataset/registry-query-file.ts';
import { searchTerm, type SearchSpec } from './search.ts';

/** How MiniSearch cuts text into words (its default tokenizer). */
const WORD_BREAK = /[\n\r\p{Z}\p{P}]+/u;
/** MiniSearch's BM25 parameters and its weights of a beginning and of a near word. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** Above any relevance score: the record with a whole field equal to the query comes first. */
export const WHOLE_FIELD_BOOST = 1_000;

/** The index of `records` under `spec` (fields in the spec's order). */
export function buildTextIndex<T>(records: readonly T[], spec: SearchSpec<T>): TextIndexData {
  const names = Object.keys(spec.fields);
  const fields = names.length;
  const count = records.length;
  const fieldLength = new Uint16Array(count * fields);
  const avgFieldLength = new Float64Array(fields);
  // term → per field, the records (ascending) and counts, appended as records come in order.
  const postings = new Map<string, { docs: number[]; freqs: number[] }[]>();
  // Words repeat across records: each is folded and stemmed once.
  const termOf = new Map<string, string>();
  records.forEach((record, doc) => {
    names.forEach((name, f) => {
      const tokens = spec.fields[name]!.text(record).split(WORD_BREAK);
      // MiniSearch's field length: the distinct words as cut, before folding.
      const length = new Set(tokens).size;
      if (length > 0xffff) throw new Error(`record ${doc}'s ${name} has ${length} words`);
      fieldLength[doc * fields + f] = length;
      avgFieldLength[f] = (avgFieldLength[f]! * doc + length) / (doc + 1);
      for (const token of tokens) {
        let term = termOf.get(token);
        if (term === undefined) termOf.set(token, (term = searchTerm(token)));
        if (!term) continue;
        let byField = postings.get(term);
        if (!byField) {
          byField = Array.from({ length: fields }, () => ({ docs: [], freqs: [] }));
          postings.set(term, byField);
        }
        const p = byField[f]!;
        if (p.docs.at(-1) === doc) p.freqs[p.freqs.length - 1]!++;
        else {
          p.docs.push(doc);
          p.freqs.push(1);
        }
      }
    });
  });
  const terms = [...postings.keys()].sort(byCodeUnits);
  const idOf = new Map(terms.map((t, i) => [t, i]));
  const postingStart = new Uint32Array(terms.length * fields + 1);
  let total = 0;
  terms.forEach((term, t) => {
    postings.get(term)!.forEach((p, f) => {
      total += p.docs.length;
      postingStart[t * fields + f + 1] = total;
    });
  });
  const docs = new Uint32Array(total);
  const freqs = new Uint16Array(total);
  terms.forEach((term, t) => {
    postings.get(term)!.forEach((p, f) => {
      const at = postingStart[t * fields + f]!;
      docs.set(p.docs, at);
      p.freqs.forEach((n, i) => (freqs[at + i] = Math.min(n, 0xffff)));
    });
  });
  return {
    count,
    fields: names,
    boosts: names.map((n) => spec.fields[n]!.boost),
    terms: packStrings(terms),
    // The order MiniSearch met the words in: its word tree, and so the order it sums, follows it.
    insertion: Uint32Array.from(postings.keys(), (t) => idOf.get(t)!),
    postingStart,
    docs,
    freqs,
    fieldLength,
    avgFieldLength,
    wholes: wholeValues(records, spec),
  };
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Sorted strings as one text and the offsets of each (no per-string object in memory). */
export function packStrings(sorted: readonly string[]): { text: string; start: Uint32Array } {
  const start = new Uint32Array(sorted.length + 1);
  let at = 0;
  sorted.forEach((s, i) => (start[i + 1] = at += s.length));
  return { text: sorted.join(''), start };
}

/** The whole-field values (folded), sorted, each with the records that hold it. */
function wholeValues<T>(records: readonly T[], spec: SearchSpec<T>): TextIndexData['wholes'] {
  const holders = new Map<string, Set<number>>();
  records.forEach((r, doc) => {
    for (const v of spec.whole(r)) {
      if (!v) continue;
      const folded = foldText(v.trim());
      let set = holders.get(folded);
      if (!set) holders.set(folded, (set = new Set()));
      set.add(doc);
    }
  });
  const values = [...holders.keys()].sort(byCodeUnits);
  const start = new Uint32Array(values.length + 1);
  let total = 0;
  values.forEach((v, i) => (start[i + 1] = total += holders.get(v)!.size));
  const docs = new Uint32Array(total);
  values.forEach((v, i) =>
    docs.set(
      [...holders.get(v)!].sort((a, b) => a - b),
      start[i]!,
    ),
  );
  return { values: packStrings(values), start, docs };
}

/** String i of packed strings. */
const stringAt = (p: { text: string; start: Uint32Array }, i: number) =>
  p.text.slice(p.start[i]!, p.start[i + 1]!);

/** The first index whose string is ≥ `key` (strings sorted by code unit). */
function lowerBound(size: number, at: (i: number) => string, key: string): number {
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(mid) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One word of the record that a query word matches, and the weight of that match. */
interface Derived {
  term: number;
  weight: number;
}

/** The words of an index in MiniSearch's word tree (made once per index, as MiniSearch made it). */
const trees = new WeakMap<TextIndexData, SearchableMap<number>>();

export function termTree(index: TextIndexData): SearchableMap<number> {
  let tree = trees.get(index);
  if (!tree) {
    tree = new SearchableMap<number>();
    for (const t of index.insertion) tree.set(stringAt(index.terms, t), t);
    trees.set(index, tree);
  }
  return tree;
}

/**
 * The words of the record a query word matches, as MiniSearch takes them and in its order (the
 * order of the sums): itself (weight 1), then the longer words it begins (when `prefix`), then
 * the words one edit away (when `fuzzy`) that are neither itself nor a beginning match.
 */
function derivedTerms(index: TextIndexData, term: string, prefix: boolean, fuzzy: boolean) {
  const tree = termTree(index);
  const out: Derived[] = [];
  const exact = tree.get(term);
  if (exact !== undefined) out.push({ term: exact, weight: 1 });
  const near = fuzzy ? tree.fuzzyGet(term, 1) : null;
  if (prefix) {
    for (const [word, t] of tree.atPrefix(term)) {
      const distance = word.length - term.length;
      if (!distance) continue;
      near?.delete(word);
      out.push({ term: t, weight: (PREFIX_WEIGHT * word.length) / (word.length + 0.3 * distance) });
    }
  }
  for (const [word, [t, distance]] of near ?? []) {
    if (!distance) continue;
    out.push({ term: t, weight: (FUZZY_WEIGHT * word.length) / (word.length + distance) });
  }
  return out;
}

/** Scratch space reused by every query on one index (one query at a time: JavaScript). */
interface Scratch {
  stamp: Uint32Array;
  /** The candidates being narrowed. */
  list: Uint32Array;
  generation: number;
  termScore: Float64Array;
  total: Float64Array;
}

const scratches = new WeakMap<TextIndexData, Scratch>();

function scratchOf(index: TextIndexData): Scratch {
  let s = scratches.get(index);
  if (!s) {
    s = {
      stamp: new Uint32Array(index.count),
      list: new Uint32Array(index.count),
      generation: 0,
      termScore: new Float64Array(index.count),
      total: new Float64Array(index.count),
    };
    scratches.set(index, s);
  }
  return s;
}

/** A fresh mark: records stamped with it are in the current set. */
function nextMark(s: Scratch): number {
  if (s.generation === 0xffffffff) {
    s.stamp.fill(0);
    s.generation = 0;
  }
  return ++s.generation;
}

/** Whether `doc` is in the sorted postings [from, to). */
function holds(docs: Uint32Array, from: number, to: number, doc: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const d = docs[mid]!;
    if (d === doc) return mid;
    if (d < doc) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

interface QueryWord {
  derived: Derived[];
  /** The postings its derived words hold, in all fields: what walking them costs. */
  size: number;
}

/** The records every query word matches, ascending (the rarest word's records, narrowed). */
function matching(index: TextIndexData, words: readonly QueryWord[], s: Scratch): Uint32Array {
  const { postingStart, docs, fields } = index;
  const F = fields.length;
  const bySize = [...words].sort((a, b) => a.size - b.size);
  const list = s.list;
  let mark = nextMark(s);
  let n = 0;
  for (const { term } of bySize[0]!.derived)
    for (let p = postingStart[term * F]!; p < postingStart[term * F + F]!; p++) {
      const doc = docs[p]!;
      if (s.stamp[doc] === mark) continue;
      s.stamp[doc] = mark;
      list[n++] = doc;
    }
  for (const word of bySize.slice(1)) {
    if (!n) break;
    let kept = 0;
    if (n * word.derived.length * F * 17 < word.size) {
      // Few candidates: each looked up in the word's postings.
      for (let i = 0; i < n; i++) {
        const doc = list[i]!;
        if (word.derived.some(({ term }) => holdsAny(index, term, doc))) list[kept++] = doc;
      }
    } else {
      mark = nextMark(s);
      for (const { term } of word.derived)
        for (let p = postingStart[term * F]!; p < postingStart[term * F + F]!; p++)
          s.stamp[docs[p]!] = mark;
      for (let i = 0; i < n; i++) if (s.stamp[list[i]!] === mark) list[kept++] = list[i]!;
    }
    n = kept;
  }
  return list.slice(0, n).sort();
}

/** Whether any field of `term` holds `doc`. */
function holdsAny(index: TextIndexData, term: number, doc: number): boolean {
  const F = index.fields.length;
  for (let f = 0; f < F; f++) {
    const i = term * F + f;
    if (holds(index.docs, index.postingStart[i]!, index.postingStart[i + 1]!, doc) >= 0)
      return true;
  }
  return false;
}

/** MiniSearch's BM25 of one word in one field of one record. */
function bm25(freq: number, matching: number, count: number, length: number, avg: number): number {
  const { k, b, d } = BM25;
  const invDocFreq = Math.log(1 + (count - matching + 0.5) / (matching + 0.5));
  return invDocFreq * (d + (freq * (k + 1)) / (freq + k * (1 - b + (b * length) / avg)));
}

/**
 * Adds each candidate's score for one query word into `s.termScore`, in MiniSearch's order (word
 * of the record, then field), each contribution its product in its order (weight × term boost 1
 * × field boost × record boost × BM25): by walking the postings when that is cheaper than looking
 * each candidate up in them. Candidates are stamped with `mark`.
 */
function scoreWord(
  index: TextIndexData,
  word: QueryWord,
  candidates: Uint32Array,
  whole: ReadonlySet<number>,
  s: Scratch,
  mark: number,
): void {
  const { postingStart, docs, freqs, fieldLength, avgFieldLength, boosts, count } = index;
  const F = boosts.length;
  const { termScore, stamp } = s;
  for (const doc of candidates) termScore[doc] = 0;
  const walk = word.size < candidates.length * word.derived.length * F * 17;
  for (const { term, weight } of word.derived) {
    for (let f = 0; f < F; f++) {
      const from = postingStart[term * F + f]!;
      const to = postingStart[term * F + f + 1]!;
      if (from === to) continue;
      const boost = boosts[f]!;
      const avg = avgFieldLength[f]!;
      const n = walk ? to - from : candidates.length;
      for (let k = 0; k < n; k++) {
        let doc: number;
        let p: number;
        if (walk) {
          p = from + k;
          doc = docs[p]!;
          if (stamp[doc] !== mark) continue;
        } else {
          doc = candidates[k]!;
          p = holds(docs, from, to, doc);
          if (p < 0) continue;
        }
        const docBoost = whole.size && whole.has(doc) ? WHOLE_FIELD_BOOST : 1;
        const raw = bm25(freqs[p]!, to - from, count, fieldLength[doc * F + f]!, avg);
        termScore[doc]! += weight * 1 * boost * docBoost * raw;
      }
    }
  }
}

/** The records whose whole field (folded) equals the whole query (folded). */
function wholeHolders(index: TextIndexData, q: string): Set<number> {
  const { values, start, docs } = index.wholes;
  const folded = foldText(q.trim());
  const size = values.start.length - 1;
  const i = lowerBound(size, (j) => stringAt(values, j), folded);
  if (i >= size || stringAt(values, i) !== folded) return new Set();
  return new Set(docs.subarray(start[i]!, start[i + 1]!));
}

/** Positions of the records matching `q`, best first (ties in position order). */
export function searchText(index: TextIndexData, q: string): number[] {
  const processed = q
    .split(WORD_BREAK)
    .map((w) => searchTerm(w))
    .filter(Boolean);
  if (!processed.length) return [];
  const F = index.fields.length;
  const words: QueryWord[] = processed.map((term, i) => {
    // search.ts's options: a one-letter word is a beginning only when it is the last.
    const prefix = term.length > 1 || i === processed.length - 1;
    const derived = derivedTerms(index, term, prefix, term.length >= 6);
    let size = 0;
    for (const d of derived)
      size += index.postingStart[d.term * F + F]! - index.postingStart[d.term * F]!;
    return { derived, size };
  });
  if (words.some((w) => !w.derived.length)) return [];
  const s = scratchOf(index);
  const candidates = matching(index, words, s);
  if (!candidates.length) return [];
  const mark = nextMark(s);
  for (const doc of candidates) s.stamp[doc] = mark;
  const whole = wholeHolders(index, q);
  const { total, termScore } = s;
  words.forEach((word, i) => {
    scoreWord(index, word, candidates, whole, s, mark);
    for (const doc of candidates)
      total[doc] = i === 0 ? termScore[doc]! : total[doc]! + termScore[doc]!;
  });
  // MiniSearch multiplies by the number of distinct query words matched (all of them: AND).
  const quality = new Set(processed).size;
  return rankByScore(candidates, total, quality);
}

/**
 * `docs` (ascending) by score (`total` × `quality`), highest first, ties in ascending order:
 * grouped by score (records made alike score alike) and the distinct scores sorted, cheaper than
 * sorting every record.
 */
function rankByScore(docs: Uint32Array, total: Float64Array, quality: number): number[] {
  const groups = new Map<number, number[]>();
  for (const doc of docs) {
    const v = total[doc]! * quality;
    const group = groups.get(v);
    if (group) group.push(doc);
    else groups.set(v, [doc]);
  }
  const out: number[] = [];
  for (const v of Float64Array.from(groups.keys()).sort().reverse())
    for (const doc of groups.get(v)!) out.push(doc);
  return out;
}
