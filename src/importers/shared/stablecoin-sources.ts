// The `sources` side of a refresh: the DefiLlama entry the new figures cite (with the import's
// provenance), and the removal of entries on a refused domain once nothing cites them any more
// (the stablecoins importer; the coin importer names its DefiLlama source by the same slug).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, parse, visit, type Document } from 'yaml';
import { onDomain } from '../../authoring/source-lists.ts';
import type { ImportProvenance } from './provenance.ts';
import { nodeFor } from './data-docs.ts';

/**
 * The coin's page on defillama.com. DefiLlama's site names a coin's page after its name,
 * lower-cased with spaces as hyphens and apostrophes dropped ("USD Coin" → usd-coin).
 */
export const defillamaSlug = (name: string) =>
  encodeURIComponent(name.toLowerCase().split(' ').join('-').split("'").join(''));

/** A kebab-case source id for the coin and date, e.g. `defillama-usd-coin-2026-11-20`. */
export const sourceIdFor = (name: string, asOf: string) =>
  `defillama-${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}-${asOf}`;

export interface SourceEntry {
  id: string;
  kind: 'data_aggregator';
  title: string;
  publisher: 'DefiLlama';
  url: string;
  accessed: string;
  published: string;
  provenance: ImportProvenance;
}

/** Adds the entry, or replaces the one with its id (a re-run of the same day's file). */
export function putSource(doc: Document, entry: SourceEntry): void {
  const list = doc.get('sources', true);
  const node = nodeFor(doc, entry);
  if (!isSeq(list)) {
    doc.set('sources', nodeFor(doc, [entry]));
    return;
  }
  const at = list.items.findIndex((item) => isMap(item) && item.get('id') === entry.id);
  if (at >= 0) list.items[at] = node;
  else list.items.push(node);
}

export interface SourcePolicy {
  refusedDomains: string[];
  /** Max age of a market cap or circulating supply, in days (null: no limit). */
  maxAgeDays: number | null;
}

/** What the import needs of data/codes/source-policy.yaml (no refusals when it is missing). */
export function readPolicy(root: string): SourcePolicy {
  try {
    const policy = parse(
      readFileSync(path.join(root, 'data/codes/source-policy.yaml'), 'utf8'),
    ) as {
      refused_domains?: { domain: string }[];
      max_age_days?: { market_cap?: number | null };
    };
    return {
      refusedDomains: (policy.refused_domains ?? []).map((r) => r.domain),
      maxAgeDays: policy.max_age_days?.market_cap ?? null,
    };
  } catch {
    return { refusedDomains: [], maxAgeDays: null };
  }
}

/** Whether the record's source `id` has its URL on one of `domains`. */
export function sourceRefused(doc: Document, domains: readonly string[]) {
  return (id: string): boolean => {
    const list = doc.get('sources', true);
    const entry = isSeq(list) ? list.items.find((i) => isMap(i) && i.get('id') === id) : undefined;
    const url = isMap(entry) ? entry.get('url') : undefined;
    return typeof url === 'string' && onDomain(url, domains) !== null;
  };
}

/** Drops the refused source entries nothing in the record cites any more; their ids. */
export function pruneRefused(doc: Document, domains: readonly string[]): string[] {
  const list = doc.get('sources', true);
  if (!isSeq(list)) return [];
  const cited = new Map<string, number>();
  visit(doc, {
    Scalar(_, node) {
      if (isScalar(node) && typeof node.value === 'string')
        cited.set(node.value, (cited.get(node.value) ?? 0) + 1);
    },
  });
  const refused = sourceRefused(doc, domains);
  const dropped: string[] = [];
  list.items = list.items.filter((item) => {
    const id = isMap(item) ? item.get('id') : undefined;
    // The entry's own id is one occurrence; any other is a citation.
    if (typeof id !== 'string' || !refused(id) || (cited.get(id) ?? 0) > 1) return true;
    dropped.push(id);
    return false;
  });
  return dropped;
}
