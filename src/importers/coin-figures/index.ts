// npm run data:import -- coin-figures --file ../shared/data/dated-figures/figures.csv [--write]
// Circulating supply of the coins whose issuers' reserve reports are transcribed in figures.csv
// (USDC, USDT, RLUSD, USD1): the newest report becomes `circulating_supply`, every earlier one its
// history (newest first), each with its report month, its precision and where it was transcribed;
// the source is the issuer's page. A figure an editor set from another source stays: a newer one
// is kept as it is (reported), an older one moves into history.
import { isMap, isSeq, type Document } from 'yaml';
import type { Source } from '../../domain/common.ts';
import type { FileChange } from '../shared/changes.ts';
import { nodeFor, readDataDocs, renderDoc, valueAt, type DataDoc } from '../shared/data-docs.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { provenanceOf } from '../shared/provenance.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { daysBetween } from '../../dataset/figures.ts';
import { readUniverse } from '../shared/stablecoin-universe.ts';
import { readFigures, type ReportPoint } from './read.ts';

interface Point {
  value: number;
  as_of: string;
  source: string;
  period?: { start: string; end: string };
  precision?: number;
  origin?: { source: string };
}

const ticker = (symbol: string) => symbol.replace(/₮/g, 'T').toUpperCase();
const kebab = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The source id of an issuer's reserve reports, e.g. `circle-reserve-reports`. */
const sourceIdOf = (p: ReportPoint) => `${kebab(p.publisher.split('/')[0]!)}-reserve-reports`;

function pointOf(p: ReportPoint, source: string): Point {
  return {
    value: p.value,
    as_of: p.as_of,
    source,
    period: p.period,
    precision: p.precision,
    origin: { source, ...p.origin },
  };
}

function sourceOf(p: ReportPoint, ctx: ImportContext, rows: number): Source {
  const input = ctx.input!;
  return {
    id: sourceIdOf(p),
    kind: 'issuer',
    title: `${p.publisher}: ${p.symbol} reserve reports, tokens in circulation per report (values as transcribed in ${p.origin.repository}, rounded to ${p.precision / 1e9} billion)`,
    publisher: p.publisher,
    url: p.issuer_url,
    accessed: ctx.today,
    published: null,
    provenance: provenanceOf(input, input.name, rows, ctx.today),
  };
}

/** The record's figure after the import, or why it is kept. */
/** The dataset date and the circulating supply's maximum age (data/release.yaml, source policy). */
function agePolicy(root: string): { datasetDate: string | null; maxAge: number | null } {
  const read = (file: string) => {
    try {
      return parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const policy = read('data/codes/source-policy.yaml') as {
    max_age_days?: Record<string, number | null>;
  };
  return {
    datasetDate: (read('data/release.yaml')['dataset_date'] as string | undefined) ?? null,
    maxAge: policy.max_age_days?.['circulating_supply'] ?? null,
  };
}

const monthYear = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

function nextFigure(
  doc: Document,
  points: ReportPoint[],
  source: string,
  ages: ReturnType<typeof agePolicy>,
): { figure: Record<string, unknown> | null; said: string } {
  const current = (valueAt(doc, ['circulating_supply']) ?? {}) as Record<string, unknown> & {
    value?: number | null;
    as_of?: string | null;
    source?: string | null;
    history?: Point[];
  };
  const reports = points
    .map((p) => pointOf(p, source))
    .sort((a, b) => b.as_of.localeCompare(a.as_of));
  const newest = reports[0]!;
  const editorCurrent =
    typeof current.value === 'number' &&
    current.as_of &&
    current.source &&
    current.source !== source
      ? ({ value: current.value, as_of: current.as_of, source: current.source } as Point)
      : null;
  if (editorCurrent && editorCurrent.as_of > newest.as_of)
    return {
      figure: null,
      said: `circulating_supply kept: an editor's figure dated ${editorCurrent.as_of} (${editorCurrent.source}) is newer than the newest report (${newest.as_of})`,
    };
  // Points of other sources stay in history; a report point of the same date replaces none of them.
  const others = [
    ...(editorCurrent ? [editorCurrent] : []),
    ...(current.history ?? []).filter((h) => h.source !== source),
  ];
  const taken = new Set(others.map((o) => o.as_of));
  const history = [...others, ...reports.slice(1).filter((r) => !taken.has(r.as_of))].sort((a, b) =>
    b.as_of.localeCompare(a.as_of),
  );
  const figure: Record<string, unknown> = {
    value: newest.value,
    as_of: newest.as_of,
    source,
    period: newest.period,
    precision: newest.precision,
    origin: newest.origin,
    ...(ages.datasetDate &&
    ages.maxAge !== null &&
    daysBetween(newest.as_of, ages.datasetDate) > ages.maxAge
      ? {
          stale_reason: `The newest known report of ${points[0]!.publisher} is for ${monthYear(newest.as_of)}; a later figure comes with the issuer's next report or a read of the ledgers.`,
        }
      : {}),
    ...(history.length ? { history } : {}),
  };
  return {
    figure,
    said: `circulating_supply ${newest.value} as of ${newest.as_of} (${reports.length} report(s); ${history.length} in history)`,
  };
}

async function run(ctx: ImportContext): Promise<ImportResult> {
  const pages = new Map(readUniverse(ctx.root).report_pages.map((p) => [p.publisher, p.url]));
  const read = readFigures(ctx.input!, pages);
  const records = readDataDocs(ctx.root, 'data/stablecoins');
  const report = [
    `${ctx.input!.name}: ${read.rows} rows, ${read.points.length} issuer report point(s)`,
  ];
  report.push(...read.skipped.map((s) => `  skipped ${s}`));
  const bySymbol = Map.groupBy(read.points, (p) => ticker(p.symbol));
  const changes: FileChange[] = [];
  const ages = agePolicy(ctx.root);
  for (const [symbol, points] of bySymbol) {
    const matches = records.filter(
      (r: DataDoc) =>
        ticker(String(r.doc.get('symbol'))) === symbol && r.doc.get('peg_currency') === 'USD',
    );
    if (matches.length !== 1) {
      report.push(
        `${symbol}: ${matches.length ? 'several records' : 'no record'} of data/stablecoins is ${symbol}/USD; not written`,
      );
      continue;
    }
    const record = matches[0]!;
    const before = renderDoc(record);
    const source = sourceIdOf(points[0]!);
    const { figure, said } = nextFigure(record.doc, points, source, ages);
    report.push(`${record.path}: ${said}`);
    if (!figure) continue;
    const node = nodeFor(record.doc, JSON.parse(JSON.stringify(figure)));
    // History points on one line each, as editors write them.
    const history = isMap(node) ? node.get('history', true) : null;
    if (history && 'items' in history)
      for (const item of (history as { items: unknown[] }).items) if (isMap(item)) item.flow = true;
    record.doc.set('circulating_supply', node);
    const sources = record.doc.get('sources', true);
    const entry = sourceOf(points[0]!, ctx, read.rows);
    if (isSeq(sources)) {
      const items = sources.items;
      const at = items.findIndex((i) => isMap(i) && i.get('id') === entry.id);
      const same =
        at >= 0 &&
        (items[at] as { toJSON(): Source }).toJSON().provenance?.sha256 ===
          entry.provenance?.sha256;
      if (at < 0) items.push(nodeFor(record.doc, entry));
      else if (!same) items[at] = nodeFor(record.doc, entry);
    }
    const after = renderDoc(record);
    if (after !== before) changes.push({ path: record.path, after });
  }
  return { changes, report };
}

export const coinFiguresImporter: Importer = {
  name: 'coin-figures',
  summary:
    "coins' circulating supply from issuers' reserve reports transcribed in dated-figures/figures.csv",
  needsInput: true,
  run,
};
