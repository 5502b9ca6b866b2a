// npm run data:import -- ecb-fx --file eurofxref-hist.csv|eurofxref.csv|*.xml [--write]
// The ECB's euro reference rates → data/fx.yaml, only what the data needs: for every amount of an
// asset and every market cap of a stablecoin in a currency other than USD that no rate in fx.yaml
// converts yet (src/dataset/stablecoins.ts usdRate: a rate at most FX_MAX_AGE_DAYS older than the
// figure), the latest ECB day on or before the figure's date within that age, with EUR→USD and
// EUR→currency of that one day (cross rates go through the euro). A rate already in fx.yaml is
// never replaced: a different value is reported. Re-running on the same file changes nothing.
import type { YAMLMap, YAMLSeq } from 'yaml';
import type { FxFile } from '../../domain/market.ts';
import { FX_MAX_AGE_DAYS, usdRate } from '../../dataset/stablecoins.ts';
import type { FileChange } from '../shared/changes.ts';
import { readDataDocs, renderDoc, valueAt } from '../shared/data-docs.ts';
import { ImportError } from '../shared/errors.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { readEcbRates, type EcbRates } from './read.ts';

export const FX_FILE = 'data/fx.yaml';
const ECB_HIST = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip';

interface Need {
  currency: string;
  date: string;
  /** The data file whose figure needs it. */
  file: string;
}

/** Every non-USD figure of the data that is converted to USD, with its date. */
function needs(root: string): Need[] {
  const out: Need[] = [];
  for (const d of readDataDocs(root, 'data/assets')) {
    const currency = valueAt(d.doc, ['amount', 'currency']);
    const date = valueAt(d.doc, ['amount', 'as_of']);
    if (typeof currency === 'string' && typeof date === 'string' && currency !== 'USD')
      out.push({ currency, date, file: d.path });
  }
  for (const d of readDataDocs(root, 'data/stablecoins')) {
    const currency = valueAt(d.doc, ['peg_currency']);
    const date = valueAt(d.doc, ['market_cap', 'as_of']);
    if (typeof currency === 'string' && typeof date === 'string' && currency !== 'USD')
      out.push({ currency, date, file: d.path });
  }
  return out;
}

const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/** The latest ECB day on or before `date`, within FX_MAX_AGE_DAYS, with USD and `currency`. */
function ecbDay(rates: EcbRates, currency: string, date: string): string | null {
  for (const [day, values] of rates) {
    if (day > date) continue;
    if (days(day, date) > FX_MAX_AGE_DAYS) return null;
    if (values.has('USD') && (currency === 'EUR' || values.has(currency))) return day;
  }
  return null;
}

async function run({ root, input, today }: ImportContext): Promise<ImportResult> {
  const rates = readEcbRates(input!);
  const fxDoc = readDataDocs(root, 'data').find((d) => d.path === FX_FILE);
  if (!fxDoc)
    throw new ImportError(
      { input: FX_FILE },
      'is missing',
      'data/fx.yaml with `rates:` and `sources:` (see CONTRIBUTING.md)',
    );
  const fx = fxDoc.doc.toJS() as FxFile;
  const report: string[] = [];
  const added: FxFile['rates'] = [];
  const missing: string[] = [];
  const held = (base: string, quote: string, date: string) =>
    [...fx.rates, ...added].find((r) => r.base === base && r.quote === quote && r.date === date);
  const all = needs(root);
  for (const need of all) {
    const current = { ...fx, rates: [...fx.rates, ...added] };
    if (usdRate(current, need.currency, need.date)) continue;
    const day = ecbDay(rates, need.currency, need.date);
    if (!day) {
      missing.push(
        `  not converted: ${need.currency} ${need.date} (${need.file}): the file has no ECB rate for USD${need.currency === 'EUR' ? '' : ` and ${need.currency}`} within ${FX_MAX_AGE_DAYS} days before`,
      );
      continue;
    }
    for (const quote of need.currency === 'EUR' ? ['USD'] : ['USD', need.currency]) {
      const value = rates.get(day)!.get(quote)!;
      const existing = held('EUR', quote, day);
      if (!existing)
        added.push({ base: 'EUR', quote, rate: value, date: day, source: `ecb-eurofxref-${day}` });
      else if (existing.rate !== value)
        report.push(
          `  kept: ${FX_FILE} has EUR/${quote} ${existing.rate} on ${day}; the ECB file says ${value} (check the source ${existing.source})`,
        );
    }
  }
  report.unshift(
    `${input!.name}: ECB euro reference rates, ${rates.size} days (${[...rates.keys()].at(-1) ?? '–'} to ${[...rates.keys()][0] ?? '–'}); ${all.length} figures in other currencies than USD, ${added.length} rates added`,
  );
  report.push(...missing);
  if (!added.length) return { changes: [], report };

  const doc = fxDoc.doc;
  const rateSeq = doc.get('rates') as YAMLSeq;
  const sourceSeq = doc.get('sources') as YAMLSeq;
  const sourceIds = new Set(sourceSeq.items.map((s) => String((s as YAMLMap).get('id'))));
  for (const r of added) {
    const node = doc.createNode(r) as YAMLMap;
    node.flow = true;
    rateSeq.items.push(node);
    if (sourceIds.has(r.source)) continue;
    sourceIds.add(r.source);
    const source = doc.createNode({
      id: r.source,
      kind: 'regulator_publication',
      title: `Euro foreign exchange reference rates of ${r.date} (ECB)`,
      publisher: 'European Central Bank',
      url: input!.kind === 'url' ? input!.name : ECB_HIST,
      accessed: today,
      published: r.date,
    }) as YAMLMap;
    source.flow = true;
    sourceSeq.items.push(source);
  }
  // Newest rate first, as the file keeps them.
  rateSeq.items.sort(
    (a, b) =>
      String((b as YAMLMap).get('date')).localeCompare(String((a as YAMLMap).get('date'))) ||
      String((a as YAMLMap).get('quote')).localeCompare(String((b as YAMLMap).get('quote'))),
  );
  const change: FileChange = { path: FX_FILE, after: renderDoc(fxDoc) };
  return { changes: [change], report };
}

export const ecbFxImporter: Importer = {
  name: 'ecb-fx',
  summary:
    "the ECB's euro foreign-exchange reference rates (eurofxref CSV or XML) the data's amounts need",
  needsInput: true,
  run,
};
