// The single-asset lookup parameters and the nearest known IDs for a miss.
import { TFIN_PATTERN, normaliseTfin } from '../domain/identifiers.ts';
import { readParams, type ParamProblem, type ParamResult, type ParamSpec } from './params.ts';
import { contractKey, type IndexRow } from '../dataset/registry-index.ts';
import { DATASET_VERSION_PARAM } from './version-param.ts';
import { editDistance } from '../lib/edit-distance.ts';

/** The identifiers an asset can be looked up by; exactly one per request. */
export const SELECTORS = ['tfin', 'isin', 'contract', 'dti'] as const;
export type Selector = (typeof SELECTORS)[number];

/** `<LEDGER>:<address>` → its comparable form (contractKey); anything else is left for the pattern to refuse. */
function normaliseContract(raw: string): string {
  const s = raw.trim();
  const colon = s.indexOf(':');
  return colon > 0 ? contractKey(s.slice(0, colon), s.slice(colon + 1)) : s;
}

export const LOOKUP_PARAMS: ParamSpec[] = [
  {
    name: 'tfin',
    description:
      'TFIN ID of the asset (case-insensitive). Give exactly one of `tfin`, `isin`, `contract`, `dti`.',
    pattern: TFIN_PATTERN,
    format: 'a TFIN: TFIN-<CLASS>-<LEDGER>-<YEAR>-<SEQ>',
    example: 'TFIN-FUND-ETH-2024-0001',
    normalise: normaliseTfin,
    maxLength: 64,
  },
  {
    name: 'isin',
    description:
      'ISIN (ISO 6166) mapped to the asset (case-insensitive). Instead of `tfin`; an ISIN mapped to several assets answers 409 `ambiguous_identifier` with the candidates.',
    pattern: /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/,
    format: 'an ISIN (ISO 6166): 2 letters, 9 letters or digits, a check digit',
    example: 'US0378331005',
    normalise: (s) => s.trim().toUpperCase(),
    maxLength: 32,
  },
  {
    name: 'contract',
    description:
      'Token contract as `<LEDGER>:<address>` (ledger code, then the address on it). EVM addresses (0x + 40 hex digits) match in any case; other addresses as written. Instead of `tfin`; a contract shared by several assets answers 409 `ambiguous_identifier`.',
    pattern: /^[A-Z]{3}:[A-Za-z0-9._-]{1,128}$/,
    format: 'a ledger code and an address: <LEDGER>:<address>',
    example: 'ETH:0x7712c34205737192402172409a8f7ccef8aa2aec',
    normalise: normaliseContract,
    maxLength: 140,
  },
  {
    name: 'dti',
    description:
      'Digital Token Identifier (ISO 24165, 9 characters, case-insensitive). Instead of `tfin`.',
    pattern: /^[0-9A-Z]{9}$/,
    format: 'a DTI (ISO 24165): 9 letters or digits',
    example: 'X9J9K872S',
    normalise: (s) => s.trim().toUpperCase(),
    maxLength: 32,
  },
  DATASET_VERSION_PARAM,
  {
    name: 'include',
    description:
      'Optional parts of the profile: `history` adds `amount.history` (previous values, each with its date and source). Off by default to keep the body small.',
    values: ['history'],
    normalise: (s) => s.trim().toLowerCase(),
    example: 'history',
  },
];

/**
 * Up to three known TFINs nearest to a well-formed unknown one, nearest first (ties by ID).
 * Exhaustive: one edit distance per known TFIN. The reference for `TfinIndex`, and fine for the
 * short lists of the docs; at request time use `suggestTfins` (0.6 s of CPU a miss at 100,000).
 */
export function closestTfins(known: Iterable<string>, tfin: string, count = 3): string[] {
  const best: { id: string; d: number }[] = [];
  for (const id of known) {
    const d = editDistance(id, tfin);
    if (
      best.length < count ||
      d < best[best.length - 1]!.d ||
      (d === best[best.length - 1]!.d && id < best[best.length - 1]!.id)
    ) {
      best.push({ id, d });
      best.sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
      if (best.length > count) best.pop();
    }
  }
  return best.map((x) => x.id);
}

/**
 * TFINs are ASCII. Checked on the raw value, before trim() and toUpperCase(): those map a dotless
 * ı, the ﬁ ligature or NBSP/U+3000/BOM padding onto a real TFIN, which would answer 200 for a
 * string that is not the identifier. The problem names the first offending code point.
 */
function nonAsciiProblem(values: string[]): ParamProblem | null {
  if (values.length !== 1) return null; // absent or repeated: readParams says so
  const raw = values[0]!;
  const at = raw.search(/[^\u0000-\u007f]/);
  if (at < 0) return null;
  const cp = raw.codePointAt(at)!;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const shown = /\p{L}|\p{N}|\p{P}|\p{S}/u.test(String.fromCodePoint(cp))
    ? ` "${String.fromCodePoint(cp)}"`
    : '';
  const message = `contains the non-ASCII character ${hex}${shown} at position ${at + 1}; a TFIN is ASCII only (TFIN-<CLASS>-<LEDGER>-<YEAR>-<SEQ>)`;
  return {
    code: 'invalid_parameter',
    detail: `"tfin" ${message}.`,
    extensions: { errors: [{ parameter: 'tfin', message }] },
  };
}

/**
 * The same answer as `closestTfins`, without an edit distance per TFIN. The TFINs are sorted once
 * and walked as an implicit trie (a sorted list shares prefixes with its neighbours): the
 * dynamic-programming row of a shared prefix ("TFIN-DEBT-ETH-2021-") is computed once for every
 * ID under it. A prefix whose lower bound (the row's best cell plus the length left to align,
 * since all TFINs have one length) cannot beat the third-best candidate held so far is skipped
 * with the whole block of IDs under it (binary search). The candidates are seeded from the IDs
 * sorted next to the query, so the bound is tight from the start. At 100,000 IDs a miss costs
 * about a millisecond; bench/scaling.ts measures it.
 */
export class TfinIndex {
  private readonly ids: string[];
  private readonly maxLength: number;

  constructor(known: Iterable<string>) {
    // Code-unit order, the same order as the `<` tie-break of closestTfins.
    this.ids = [...known].sort();
    this.maxLength = this.ids.reduce((n, id) => Math.max(n, id.length), 0);
    this.sameLength = this.ids.every((id) => id.length === this.maxLength);
  }

  /** True when every ID has one length (well-formed TFINs do): the bound may count the length left. */
  private readonly sameLength: boolean;

  get size(): number {
    return this.ids.length;
  }

  suggest(query: string, count = 3): string[] {
    const { ids } = this;
    const m = query.length;
    const q = Array.from({ length: m }, (_, j) => query.charCodeAt(j));
    // rows[d]: edit distances between the first d characters of an ID and each prefix of the query.
    const rows = Array.from({ length: this.maxLength + 1 }, () => new Int32Array(m + 1));
    for (let j = 0; j <= m; j++) rows[0]![j] = j;
    const best: { id: string; d: number }[] = [];
    const beats = (id: string, d: number) =>
      best.length < count ||
      d < best[count - 1]!.d ||
      (d === best[count - 1]!.d && id < best[count - 1]!.id);
    const offer = (id: string, d: number) => {
      if (!beats(id, d) || best.some((b) => b.id === id)) return;
      best.push({ id, d });
      best.sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
      if (best.length > count) best.pop();
    };
    // Walks ids[from, to) (sorted), pruning blocks that cannot beat the third-best candidate.
    const walk = (from: number, to: number) => {
      let prev = '';
      let valid = 0; // rows[0..valid] hold the prefix of `prev`
      let i = from;
      while (i < to) {
        const id = ids[i]!;
        const length = id.length;
        let k = 0;
        const shared = Math.min(valid, length, prev.length);
        while (k < shared && id.charCodeAt(k) === prev.charCodeAt(k)) k++;
        let prunedAt = 0;
        for (let d = k + 1; d <= length; d++) {
          const above = rows[d - 1]!;
          const row = rows[d]!;
          const c = id.charCodeAt(d - 1);
          row[0] = d;
          // Lower bound of any completion: a cell plus (when every ID has this length) the
          // difference of the lengths still to align.
          const uniform = this.sameLength;
          const shift = length - d - m; // (length left in the ID) - (length left in the query) at j = 0
          let bound = d + (uniform ? Math.abs(shift) : 0);
          for (let j = 1; j <= m; j++) {
            const v = Math.min(
              above[j]! + 1,
              row[j - 1]! + 1,
              above[j - 1]! + (c === q[j - 1] ? 0 : 1),
            );
            row[j] = v;
            const b = uniform ? v + Math.abs(shift + j) : v;
            if (b < bound) bound = b;
          }
          if (best.length === count) {
            const worst = best[count - 1]!;
            if (bound > worst.d || (bound === worst.d && id.slice(0, d) > worst.id)) {
              prunedAt = d;
              break;
            }
          }
        }
        prev = id;
        if (prunedAt) {
          valid = prunedAt;
          i = this.endOfBlock(id.slice(0, prunedAt), i, to);
          continue;
        }
        valid = length;
        offer(id, rows[length]![m]!);
        i++;
      }
    };
    // Seed with the neighbours of the query in sorted order, then walk everything.
    const at = this.lowerBound(query);
    walk(Math.max(0, at - count), Math.min(ids.length, at + count));
    walk(0, ids.length);
    return best.map((x) => x.id);
  }

  private lowerBound(value: string): number {
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ids[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first index in (from, to) whose ID does not start with `prefix` (IDs with it are contiguous). */
  private endOfBlock(prefix: string, from: number, to: number): number {
    let lo = from + 1;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ids[mid]!.startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

// One index per registry object, built on the first miss (the registry cannot change while the process runs).
const indexes = new WeakMap<object, TfinIndex>();

/** The registry's suggestion index; the server calls it at start so no request pays the sort. */
export function tfinIndex(registry: { tfins(): Iterable<string> }): TfinIndex {
  let index = indexes.get(registry);
  if (!index) indexes.set(registry, (index = new TfinIndex(registry.tfins())));
  return index;
}

/** Suggestions for an unknown TFIN from the registry's own index: what the lookup endpoints call. */
export function suggestTfins(registry: { tfins(): Iterable<string> }, tfin: string): string[] {
  return tfinIndex(registry).suggest(tfin);
}

/**
 * A hit. `matched` (which selector found it, and the normalised value) is absent for a `tfin`
 * lookup, `history` absent unless `include=history` was asked for.
 */
export type LookupOutcome =
  | {
      ok: true;
      tfin: string;
      matched?: { parameter: Exclude<Selector, 'tfin'>; value: string };
      history?: true;
    }
  | { ok: false; problem: ParamProblem };

/** TFINs by ISIN, DTI and contract, built once per index (the registry cannot change while the process runs). */
export type IdentifierIndex = Record<Exclude<Selector, 'tfin'>, Map<string, string[]>>;
const identifierIndexes = new WeakMap<readonly IndexRow[], IdentifierIndex>();

export function identifierIndex(rows: readonly IndexRow[]): IdentifierIndex {
  let index = identifierIndexes.get(rows);
  if (index) return index;
  index = { isin: new Map(), dti: new Map(), contract: new Map() };
  const add = (map: Map<string, string[]>, key: string | null | undefined, tfin: string) => {
    if (!key) return;
    const list = map.get(key);
    if (!list) map.set(key, [tfin]);
    else if (!list.includes(tfin)) list.push(tfin);
  };
  for (const row of rows) {
    add(index.isin, row.isin, row.tfin);
    add(index.dti, row.dti, row.tfin);
    for (const c of row.contracts ?? []) add(index.contract, c, row.tfin);
  }
  identifierIndexes.set(rows, index);
  return index;
}

/** What a lookup by another identifier than the TFIN finds: the TFINs carrying it, in TFIN order. */
export type FindByIdentifier = (
  parameter: Exclude<Selector, 'tfin'>,
  value: string,
) => readonly string[];

export function finderOf(rows: readonly IndexRow[]): FindByIdentifier {
  return (parameter, value) => identifierIndex(rows)[parameter].get(value) ?? [];
}

const SELECTOR_HELP =
  'Give exactly one of "tfin", "isin", "contract" (<LEDGER>:<address>) or "dti", e.g. ?tfin=TFIN-FUND-ETH-2024-0001 or ?isin=US0378331005.';

/**
 * The answer to `?tfin=` (or `isin`, `contract`, `dti`): a known asset, or the problem to send.
 * The fast path and Astro's endpoint both call this, so they cannot drift apart.
 */
export function resolveLookup(
  query: URLSearchParams,
  has: (tfin: string) => boolean,
  suggest: (tfin: string) => string[],
  find: FindByIdentifier = () => [],
): LookupOutcome {
  return resolveRead(query, readParams(query, LOOKUP_PARAMS), has, suggest, find);
}

/**
 * `resolveLookup` over parameters already read with LOOKUP_PARAMS (the lookup answer reads them
 * once, for the dataset version and the selector alike). The raw `tfin` is checked for non-ASCII
 * first: normalising could have made it a real TFIN.
 */
export function resolveRead(
  query: URLSearchParams,
  params: ParamResult,
  has: (tfin: string) => boolean,
  suggest: (tfin: string) => string[],
  find: FindByIdentifier = () => [],
): LookupOutcome {
  const ascii = nonAsciiProblem(query.getAll('tfin'));
  if (ascii) return { ok: false, problem: ascii };
  if (!params.ok) return params;
  const given = SELECTORS.filter((s) => params.values[s] !== undefined);
  if (given.length === 0) {
    return {
      ok: false,
      problem: {
        code: 'missing_parameter',
        detail: `An asset selector is required. ${SELECTOR_HELP}`,
        extensions: { errors: [{ parameter: 'tfin', message: 'is required' }] },
      },
    };
  }
  if (given.length > 1) {
    return {
      ok: false,
      problem: {
        code: 'conflicting_parameters',
        detail: `The selectors ${given.map((g) => `"${g}"`).join(' and ')} were given together. ${SELECTOR_HELP}`,
        extensions: {
          errors: given.map((g) => ({ parameter: g, message: 'is one of several selectors' })),
        },
      },
    };
  }
  const history = params.values['include'] === 'history' ? { history: true as const } : {};
  const selector = given[0]!;
  if (selector !== 'tfin') {
    const value = params.values[selector]!;
    const found = find(selector, value);
    if (found.length === 1) {
      return { ok: true, tfin: found[0]!, matched: { parameter: selector, value }, ...history };
    }
    if (found.length > 1) {
      return {
        ok: false,
        problem: {
          code: 'ambiguous_identifier',
          detail: `The ${selector} ${value} is carried by ${found.length} assets: ${found.join(', ')}. Look one up by its TFIN.`,
          extensions: { candidates: [...found] },
        },
      };
    }
    return {
      ok: false,
      problem: {
        code: 'asset_not_found',
        detail: `No record has the ${selector} ${value}.`,
        extensions: { suggestions: [] },
      },
    };
  }
  const tfin = params.values['tfin']!;
  if (has(tfin)) return { ok: true, tfin, ...history };
  const suggestions = suggest(tfin);
  return {
    ok: false,
    problem: {
      code: 'asset_not_found',
      detail: `No record has the TFIN ${tfin}. Closest known: ${suggestions.join(', ')}.`,
      extensions: { suggestions },
    },
  };
}
