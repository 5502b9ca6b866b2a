// npm run data:import -- stablecoins (--file F | --url U) [--write]
// Circulating supply and market cap of data/stablecoins from DefiLlama's stablecoins API (the
// /stablecoins list or one /stablecoin/{id}). Each matched coin gets both figures at the answer's
// date, citing a data_aggregator source with the import's provenance; the values they replace
// move into history. Market cap is the circulating amount at the peg, in the peg currency (EUR
// coins in EUR: no FX conversion is made here; dominance converts with data/fx.yaml).
import type { FileChange } from '../shared/changes.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { provenanceOf } from '../shared/provenance.ts';
import { readDataDocs, renderDoc, type DataDoc } from '../shared/data-docs.ts';
import { readDefiLlama, type DefiLlamaAnswer, type PeggedAmount } from './defillama.ts';
import { refreshFigure, type Outcome } from './figures.ts';
import { matchRecords } from './match.ts';
import {
  defillamaSlug,
  pruneRefused,
  putSource,
  readPolicy,
  sourceIdFor,
  sourceRefused,
  type SourcePolicy,
} from '../shared/stablecoin-sources.ts';

const DAY_MS = 86_400_000;

function refresh(
  record: DataDoc,
  coin: PeggedAmount & { circulating: number },
  context: ImportContext,
  answer: DefiLlamaAnswer,
  policy: SourcePolicy,
): string {
  const { doc } = record;
  const source = sourceIdFor(coin.name, coin.as_of);
  const refused = sourceRefused(doc, policy.refusedDomains);
  const next = { value: coin.circulating, as_of: coin.as_of, source };
  const outcomes: [string, Outcome][] = [
    ['circulating_supply', refreshFigure(doc, 'circulating_supply', next, refused)],
    ['market_cap', refreshFigure(doc, 'market_cap', { ...next, currency: coin.peg }, refused)],
  ];
  const said = outcomes.map(([key, o]) =>
    o.kind === 'updated'
      ? `${key} ${coin.circulating} ${coin.peg} as of ${coin.as_of} (was ${o.previous})`
      : o.kind === 'kept'
        ? `${key} kept: ${o.reason}`
        : `${key} unchanged`,
  );
  if (outcomes.some(([, o]) => o.kind === 'updated')) {
    const input = context.input!;
    putSource(doc, {
      id: source,
      kind: 'data_aggregator',
      title: `DefiLlama stablecoin data: ${coin.name} (${coin.symbol}) circulating amount, ${coin.peg} peg, ${coin.as_of}`,
      publisher: 'DefiLlama',
      url: `https://defillama.com/stablecoin/${defillamaSlug(coin.name)}`,
      accessed: context.today,
      published: coin.as_of,
      provenance: provenanceOf(
        input,
        input.kind === 'url' ? input.name : answer.api_url,
        answer.rows,
        context.today,
      ),
    });
    const dropped = pruneRefused(doc, policy.refusedDomains);
    if (dropped.length) said.push(`sources on refused domains dropped: ${dropped.join(', ')}`);
  }
  const ageDays = (Date.parse(context.today) - Date.parse(coin.as_of)) / DAY_MS;
  if (policy.maxAgeDays !== null && ageDays > policy.maxAgeDays)
    said.push(
      `WARNING: ${coin.as_of} is over ${policy.maxAgeDays} days old: data:check will ask for stale_reason`,
    );
  return `${record.path}: ${said.join('; ')}`;
}

async function run(context: ImportContext): Promise<ImportResult> {
  const answer = readDefiLlama(context.input!, context.today);
  const policy = readPolicy(context.root);
  const records = readDataDocs(context.root, 'data/stablecoins');
  const report = [
    `${answer.shape === 'list' ? '/stablecoins list' : '/stablecoin/{id}'}: ${answer.coins.length} coin(s), ${answer.rows} row(s)`,
  ];
  const edited: DataDoc[] = [];
  for (const match of matchRecords(records, answer.coins)) {
    if ('problem' in match) {
      // One coin's answer says nothing about the other records.
      if (answer.shape === 'list') report.push(`${match.record.path}: ${match.problem}`);
      continue;
    }
    const { record, coin } = match;
    if (coin.circulating === null || coin.circulating <= 0) {
      report.push(
        `${record.path}: DefiLlama id ${coin.id} has no positive pegged${coin.peg} amount; not changed`,
      );
      continue;
    }
    const before = renderDoc(record);
    report.push(
      refresh(record, { ...coin, circulating: coin.circulating }, context, answer, policy),
    );
    if (renderDoc(record) !== before) edited.push(record);
  }
  if (answer.shape === 'detail' && edited.length === 0 && report.length === 1)
    report.push(
      `no record of data/stablecoins is ${answer.coins[0]!.symbol}/${answer.coins[0]!.peg}`,
    );
  const changes: FileChange[] = edited.map((r) => ({ path: r.path, after: renderDoc(r) }));
  return { changes, report };
}

export const stablecoinsImporter: Importer = {
  name: 'stablecoins',
  summary: 'circulating supply and market cap from DefiLlama (/stablecoins or /stablecoin/{id})',
  needsInput: true,
  run,
};
