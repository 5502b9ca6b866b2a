// The rule `stablecoin-references` (npm run data:check).
import type { StablecoinRecord } from '../../domain/market.ts';
import { coins, oneOf, perRecord } from './rule.ts';

export const stablecoinReferences = perRecord<StablecoinRecord>(
  'stablecoin-references',
  coins,
  ({ record }, { codes }, report) => {
    const ids = new Set(record.sources.map((s) => s.id));
    const ledgers = codes.ledgers.ledgers.map((l) => l.code);
    record.ledgers.forEach((l, i) => {
      if (!ledgers.includes(l))
        report(
          ['ledgers', i],
          `"${l}" is not in data/codes/ledgers.yaml`,
          oneOf(l, ledgers, 'data/codes/ledgers.yaml'),
        );
    });
    (record.deployments ?? []).forEach((d, i) => {
      if (!record.ledgers.includes(d.ledger))
        report(
          ['deployments', i, 'ledger'],
          `"${d.ledger}" is not one of the coin's ledgers`,
          `add "${d.ledger}" to ledgers, or correct the deployment`,
        );
    });
    const refs: [(string | number)[], string | null][] = [
      [['status', 'source'], record.status.source],
      [['mica', 'white_paper', 'source'], record.mica.white_paper?.source ?? null],
      [['market_cap', 'source'], record.market_cap.source],
      [['circulating_supply', 'source'], record.circulating_supply.source],
      [['mica', 'authorisation', 'register_source'], record.mica.authorisation.register_source],
      [['reserve_attestation', 'source'], record.reserve_attestation.source],
      ...record.mica.eu_venue_restrictions.map((r, i): [(string | number)[], string] => [
        ['mica', 'eu_venue_restrictions', i, 'source'],
        r.source,
      ]),
    ];
    for (const [at, id] of refs)
      if (id && !ids.has(id))
        report(
          at,
          `names "${id}", which is not a source of this record`,
          `use one of: ${[...ids].join(', ')}`,
        );
    if (record.market_cap.currency && record.market_cap.currency !== record.peg_currency) {
      report(
        ['market_cap', 'currency'],
        `is ${record.market_cap.currency} but the coin is pegged to ${record.peg_currency}`,
        `give the market cap in ${record.peg_currency}, its peg currency`,
      );
    }
  },
);
