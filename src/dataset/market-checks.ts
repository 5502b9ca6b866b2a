// Cross-file rules of the stablecoin market data, each a small named check.
import {
  namedAfter,
  oneOf,
  perRecord,
  reportFutureDates,
  uniqueBy,
  type CheckContext,
  type DataCheck,
} from './checks.ts';
import type { FxFile, StablecoinRecord, VenuesFile } from '../domain/market.ts';

export const VENUE_COUNT = 24;

const coins = (ctx: CheckContext) => ctx.market?.stablecoins ?? [];
const venuesFile = (ctx: CheckContext) => (ctx.market?.venues ? [ctx.market.venues] : []);
const fxFile = (ctx: CheckContext) => (ctx.market?.fx ? [ctx.market.fx] : []);

export const stablecoinFileName = namedAfter<StablecoinRecord>('stablecoin-file-name', coins, 'id');

export const stablecoinUnique = uniqueBy<StablecoinRecord>(
  'stablecoin-unique',
  coins,
  (r) => r.symbol?.toUpperCase(),
  ['symbol'],
  (first) => `repeats the symbol of ${first}`,
  'one file per stablecoin: merge the two files',
);

export const stablecoinReferences = perRecord<StablecoinRecord>(
  'stablecoin-references',
  coins,
  ({ record }, { codes }, report) => {
    const ids = new Set(record.sources.map((s) => s.id));
    const ledgers = codes.ledgers.ledgers.map((l) => l.code);
    record.ledgers.forEach((l, i) => {
      if (!ledgers.includes(l))
        report(['ledgers', i], `"${l}" is not in data/codes/ledgers.yaml`, oneOf(l, ledgers));
    });
    const refs: [(string | number)[], string | null][] = [
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

export const stablecoinAuthorisation = perRecord<StablecoinRecord>(
  'stablecoin-authorisation',
  coins,
  ({ record }, _ctx, report) => {
    const a = record.mica.authorisation;
    if (a.status === 'authorised') {
      for (const field of [
        'institution_type',
        'home_member_state',
        'competent_authority',
      ] as const) {
        if (a[field] === null)
          report(
            ['mica', 'authorisation', field],
            'is null for an authorised issuer',
            `give the ${field.replaceAll('_', ' ')} from the register entry`,
          );
      }
    } else if (a.institution_type !== null) {
      report(
        ['mica', 'authorisation', 'institution_type'],
        `is set but the status is "${a.status}"`,
        'set it to null: only an authorised issuer has an institution type',
      );
    }
  },
);

export const venuesCount = perRecord<VenuesFile>(
  'venues-count',
  venuesFile,
  ({ record }, _ctx, report) => {
    if (record.venues.length !== VENUE_COUNT)
      report(
        ['venues'],
        `lists ${record.venues.length} venues`,
        `the adoption measure covers exactly ${VENUE_COUNT} venues: add or remove venues`,
      );
  },
);

export const venueRules = perRecord<VenuesFile>(
  'venue-rules',
  venuesFile,
  ({ record }, ctx, report) => {
    const known = new Set(coins(ctx).map((c) => c.record.id));
    const seen = new Set<string>();
    record.venues.forEach((v, i) => {
      const at = (...rest: (string | number)[]) => ['venues', i, ...rest];
      if (seen.has(v.id))
        report(at('id'), `repeats the venue id "${v.id}"`, 'give every venue its own id');
      seen.add(v.id);
      const ids = new Set(v.sources.map((s) => s.id));
      if (v.mica_casp.source && !ids.has(v.mica_casp.source))
        report(
          at('mica_casp', 'source'),
          `names "${v.mica_casp.source}", which is not a source of this venue`,
          `use one of: ${[...ids].join(', ')}`,
        );
      v.stablecoins_listed.forEach((c, j) => {
        if (!known.has(c))
          report(
            at('stablecoins_listed', j),
            `"${c}" is not a file in data/stablecoins/`,
            oneOf(c, [...known]),
          );
      });
      if (
        v.mica_casp.authorised === true &&
        (v.mica_casp.member_state === null || v.mica_casp.authority === null)
      ) {
        report(
          at('mica_casp'),
          'is authorised but names no member state or authority',
          'copy the home member state and the authority from the register entry',
        );
      }
    });
  },
);

export const fxReferences = perRecord<FxFile>(
  'fx-references',
  fxFile,
  ({ record }, _ctx, report) => {
    const ids = new Set(record.sources.map((s) => s.id));
    record.rates.forEach((r, i) => {
      if (!ids.has(r.source))
        report(
          ['rates', i, 'source'],
          `names "${r.source}", which is not a source in this file`,
          `use one of: ${[...ids].join(', ')}`,
        );
    });
  },
);

export const marketDatesNotFuture = perRecord<StablecoinRecord>(
  'no-future-dates',
  coins,
  ({ record }, { today }, report) => {
    const dates: [(string | number)[], string | null][] = [
      [['as_of'], record.as_of],
      [['market_cap', 'as_of'], record.market_cap.as_of],
      [['circulating_supply', 'as_of'], record.circulating_supply.as_of],
      ...record.sources.map((s, i): [(string | number)[], string | null] => [
        ['sources', i, 'published'],
        s.published,
      ]),
    ];
    reportFutureDates(dates, today, report);
  },
);

export const MARKET_CHECKS: readonly DataCheck[] = [
  stablecoinFileName,
  stablecoinUnique,
  stablecoinReferences,
  stablecoinAuthorisation,
  venuesCount,
  venueRules,
  fxReferences,
  marketDatesNotFuture,
];
