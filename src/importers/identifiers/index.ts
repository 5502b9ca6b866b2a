// npm run data:import -- identifiers --file ../shared/data/identifiers/identifiers.csv [--write]
// ISINs, CUSIPs and issuer LEIs → the records they belong to (data/assets/, data/assets/series/),
// each with its origin, after its check passes (ISIN: ISO 6166 check digit; LEI: ISO 17442
// mod-97). A failed check, a subject no record matches, an identifier another record already
// carries, and an editor's differing value are reported, never written. SEC CIKs have no field in
// the record and are reported. Re-running on the same file writes nothing.
import { isMap, type Document, type YAMLMap } from 'yaml';
import { isValidIsin, isValidLei } from '../../domain/identifiers.ts';
import type { FactOrigin, Source } from '../../domain/common.ts';
import { putSourceIfAbsent } from '../shared/record-sources.ts';
import type { FileChange } from '../shared/changes.ts';
import { nodeFor, readDataDocs, renderDoc, valueAt, type DataDoc } from '../shared/data-docs.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { provenanceOf } from '../shared/provenance.ts';
import { readIdentifierRows, type IdentifierRow } from './rows.ts';

const kebab = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
/** Names as compared: case, punctuation and "Limited"/"Ltd" do not matter. */
const folded = (s: string) =>
  s
    .toLowerCase()
    .replace(/\blimited\b/g, 'ltd')
    .replace(/[^a-z0-9]/g, '');

function sourceOf(row: IdentifierRow, ctx: ImportContext, rows: number): Source {
  if (row.path && row.commit) {
    const url = `https://github.com/${row.source}/blob/${row.commit}/${row.path}`;
    return {
      id: 'defillama-rwa-sheet',
      kind: 'data_aggregator',
      title: `DefiLlama RWA asset sheet (${row.source} ${row.path}, commit ${row.commit.slice(0, 12)}): identifiers`,
      publisher: 'DefiLlama',
      url: 'https://defillama.com/rwa',
      accessed: ctx.today,
      published: null,
      provenance: provenanceOf(ctx.input!, url, rows, ctx.today),
    };
  }
  return {
    id: `${kebab(new URL(row.source).hostname.replace(/^www\./, ''))}-identifier-page`,
    kind: /^issuer/.test(row.source_kind) ? 'issuer' : 'csd_or_registrar',
    title: `${row.subject}: ${row.source_kind} giving its ${row.type.toUpperCase()}`,
    publisher: new URL(row.source).hostname.replace(/^www\./, ''),
    url: row.source,
    accessed: ctx.today,
    published: null,
  };
}

const originOf = (row: IdentifierRow, source: Source): FactOrigin => ({
  source: source.id,
  ...(row.path && row.commit ? { repository: row.source, path: row.path, commit: row.commit } : {}),
});

/** The records a subject names: by ticker (in parentheses or leading), else by name. */
function recordsFor(row: IdentifierRow, docs: readonly DataDoc[]): DataDoc[] {
  if (row.type === 'lei') {
    // The issuer's name, else its name without a trailing note in parentheses on either side.
    const bare = (s: string) => folded(s.replace(/\s*\([^()]*\)\s*$/, ''));
    const issuers = docs.filter((d) => !d.path.includes('/series/'));
    const nameOf = (d: DataDoc) => String(valueAt(d.doc, ['issuer', 'name']) ?? '');
    const exact = issuers.filter((d) => folded(nameOf(d)) === folded(row.subject));
    return exact.length ? exact : issuers.filter((d) => bare(nameOf(d)) === bare(row.subject));
  }
  const ticker =
    /\(([^()]+)\)\s*$/.exec(row.subject)?.[1] ?? /^([A-Z0-9]{3,6}) /.exec(row.subject)?.[1];
  const name = row.subject.replace(/\s*\([^()]+\)\s*$/, '');
  const byTicker = ticker ? docs.filter((d) => d.doc.get('short_name') === ticker) : [];
  if (byTicker.length) return byTicker;
  return docs.filter((d) => folded(String(d.doc.get('name'))) === folded(name));
}

type Said = (line: string) => void;

function setIdentifier(
  doc: Document,
  at: 'isin' | 'cusip' | 'lei',
  value: string,
  origin: FactOrigin,
  said: Said,
): boolean {
  const map = doc.get(at === 'lei' ? 'issuer' : 'identifiers', true);
  if (!isMap(map)) return false;
  const current = map.get(at) as string | null | undefined;
  const currentOrigin = (map.get(`${at}_origin`, true) as YAMLMap | undefined)?.toJSON() as
    FactOrigin | undefined;
  // The same value, whoever wrote it: nothing to do (its origin stays).
  if (current === value) return false;
  if (current != null && currentOrigin?.source !== origin.source) {
    said(`editor value kept: ${at} is ${current}; the source says ${value}`);
    return false;
  }
  map.set(at, value);
  const after = [...map.items].findIndex((p) => (p.key as { value?: unknown }).value === at);
  map.delete(`${at}_origin`);
  map.items.splice(after + 1, 0, doc.createPair(`${at}_origin`, nodeFor(doc, origin)));
  if (at === 'isin') map.set('null_reason', null);
  if (at === 'lei') map.set('lei_null_reason', null);
  said(`${at} set to ${value}`);
  return true;
}

async function run(ctx: ImportContext): Promise<ImportResult> {
  const rows = readIdentifierRows(ctx.input!);
  const docs = [
    ...readDataDocs(ctx.root, 'data/assets'),
    ...readDataDocs(ctx.root, 'data/assets/series'),
  ];
  const report: string[] = [`${ctx.input!.name}: ${rows.length} rows`];
  const touched = new Set<DataDoc>();
  let attached = 0;
  for (const row of rows) {
    const where = `row ${row.row} (${row.subject}, ${row.type.toUpperCase()} ${row.identifier})`;
    if (row.type === 'cik') {
      report.push(`${where}: SEC CIKs have no field in the record; not attached`);
      continue;
    }
    if (row.type === 'isin' && !isValidIsin(row.identifier)) {
      report.push(`${where}: fails the ISO 6166 check digit; not attached`);
      continue;
    }
    if (row.type === 'lei' && !isValidLei(row.identifier)) {
      report.push(`${where}: fails the ISO 17442 mod-97 check; not attached`);
      continue;
    }
    if (row.type === 'cusip' && !/^[0-9A-Z]{9}$/.test(row.identifier)) {
      report.push(`${where}: is not 9 letters or digits; not attached`);
      continue;
    }
    if (row.type !== 'lei') {
      const holder = docs.find((d) => valueAt(d.doc, ['identifiers', row.type]) === row.identifier);
      if (holder) {
        const matched = recordsFor(row, docs);
        if (matched.length && !matched.includes(holder))
          report.push(
            `${where}: already the ${row.type.toUpperCase()} of ${String(holder.doc.get('tfin'))}, not of the record the subject names; not attached`,
          );
        continue;
      }
    }
    const targets = recordsFor(row, docs);
    if (!targets.length) {
      report.push(`${where}: no record matches the subject; not attached`);
      continue;
    }
    if (row.type !== 'lei' && targets.length > 1) {
      report.push(
        `${where}: ${targets.length} records match (${targets.map((t) => t.doc.get('tfin')).join(', ')}); not attached`,
      );
      continue;
    }
    const source = sourceOf(row, ctx, rows.length);
    for (const target of targets) {
      const changed = setIdentifier(
        target.doc,
        row.type,
        row.identifier,
        originOf(row, source),
        (line) => report.push(`${target.path}: ${line}`),
      );
      if (changed) {
        putSourceIfAbsent(target.doc, source);
        touched.add(target);
        attached++;
      }
    }
  }
  const changes: FileChange[] = [];
  for (const doc of touched) {
    const after = renderDoc(doc);
    if (after !== doc.text) changes.push({ path: doc.path, after });
  }
  report.push(`${attached} identifier(s) attached, ${changes.length} file(s) changed`);
  return { changes, report };
}

export const identifiersImporter: Importer = {
  name: 'identifiers',
  summary: 'ISINs, CUSIPs and issuer LEIs (identifiers.csv), each after its check passes',
  needsInput: true,
  run,
};
