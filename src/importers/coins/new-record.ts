// A new coin record made from the sources' facts. Fields no source gives are null with a reason in
// product terms; the MiCA classification follows a named rule from what the sources say.
import type { StablecoinRecord } from '../../domain/market.ts';
import type { CoinFacts } from './record.ts';
import { registerDateKind } from '../../dataset/register-dates.ts';

const NO_REPORT = 'The registry holds no reserve or attestation report for this coin.';

/** MiCA classification by rule: a notified EMT white paper; else a fiat-backed single-currency token. */
function classification(facts: CoinFacts): StablecoinRecord['mica'] {
  const { coin, paper } = facts;
  if (paper && coin.paper) {
    const i = coin.paper.issuer;
    // The token's own register row gives its date; what the date is follows the rule of register-dates.ts.
    const date = coin.paper.paper.authorised ?? null;
    // The institution type as the register states it; "N/A" or nothing is not a type.
    const institution = /credit/i.test(i.institution ?? '')
      ? 'credit_institution'
      : /electronic money/i.test(i.institution ?? '')
        ? 'electronic_money_institution'
        : null;
    return {
      classification: 'emt',
      classification_rationale: `An e-money token under MiCA Title IV: ESMA's register lists its white paper${paper.white_paper.notified ? `, notified ${paper.white_paper.notified}` : ''}, by ${i.name} (${i.home_member_state}).`,
      white_paper: paper.white_paper,
      authorisation: {
        status: i.authorisation_ended ? 'not_authorised' : 'authorised',
        institution_type: i.authorisation_ended ? null : institution,
        ...(i.authorisation_ended || institution
          ? {}
          : {
              institution_type_null_reason:
                "ESMA's register row gives no institution type (credit or e-money institution) for this issuer.",
            }),
        home_member_state: i.authorisation_ended ? null : i.home_member_state,
        competent_authority: i.authorisation_ended ? null : i.competent_authority,
        date,
        ...(date
          ? { date_kind: registerDateKind(date, i) }
          : {
              date_null_reason:
                "ESMA's register row of this white paper gives no authorisation or notification date.",
            }),
        register_source: 'esma-emt-register',
      },
      eu_venue_restrictions: [],
    };
  }
  const fiat = coin.listed?.mechanism === 'fiat-backed';
  return {
    classification: fiat ? 'emt' : null,
    ...(fiat
      ? {}
      : {
          classification_null_reason: `Its value is held by ${coin.listed?.mechanism === 'algorithmic' ? 'an algorithm' : 'crypto-asset collateral'}, not by an issuer's reserve of ${coin.peg}; whether it is an e-money token or another crypto-asset under MiCA is not settled, and ESMA's register lists no white paper for it.`,
        }),
    classification_rationale: fiat
      ? `It references a single official currency (${coin.peg}) and is backed by fiat reserves, which is the e-money-token definition of MiCA Art. 3(1)(7); ESMA's register lists no white paper for it, so no EU issuer is authorised to offer it.`
      : `MiCA Art. 3(1)(7) defines an e-money token as one that references a single official currency; this coin references ${coin.peg}, but through ${coin.listed?.mechanism === 'algorithmic' ? 'an algorithm' : 'crypto-asset collateral'}.`,
    white_paper: null,
    authorisation: {
      status: 'not_authorised',
      institution_type: null,
      home_member_state: null,
      competent_authority: null,
      date: null,
      register_source: 'esma-emt-register',
    },
    eu_venue_restrictions: [],
  };
}

export function newRecord(facts: CoinFacts): StablecoinRecord {
  const { coin, paper } = facts;
  const i = coin.paper?.issuer;
  const noFigure =
    "DefiLlama's stablecoin list names this coin but carries no supply figure, and the registry holds no issuer report of its circulation.";
  const noFigureEsma =
    "ESMA's register names this token but gives no supply figure, and the registry holds no issuer report of its circulation.";
  const ledgers = [...new Set(facts.deployments.map((d) => d.ledger))];
  return {
    id: coin.id,
    symbol: coin.symbol,
    name: coin.name,
    status: facts.status,
    ...(coin.listed
      ? { aggregator_ids: { defillama: coin.listed.id, coingecko: coin.listed.gecko_id } }
      : {}),
    dti: paper?.dti ?? null,
    ...(paper?.dti
      ? { dti_origin: paper.origin }
      : {
          dti_null_reason:
            paper?.dti_null_reason ??
            "ESMA's register lists no white paper for this token, the source of DTIs for e-money tokens.",
        }),
    ...(paper?.ledger_dtis.length ? { ledger_dtis: paper.ledger_dtis } : {}),
    isin: null,
    isin_null_reason: 'No ISIN is published for this token by its issuer or a numbering agency.',
    issuer: {
      // The issuer is a legal entity: without a register row naming one, it is not the token's name.
      name: i?.commercial_name ?? i?.name ?? coin.name,
      issuing_entity: i?.name ?? null,
      ...(i
        ? {}
        : {
            issuing_entity_null_reason:
              "ESMA's register lists no white paper for this token, and DefiLlama's stablecoin list does not name its issuing entity.",
          }),
      lei: paper?.lei ?? null,
      ...(paper
        ? { lei_origin: paper.origin }
        : {
            lei_null_reason:
              'The issuer publishes no LEI for this coin, and no EU register lists one for it.',
          }),
      jurisdiction: i?.home_member_state ?? null,
      ...(i
        ? {}
        : {
            jurisdiction_null_reason:
              "DefiLlama's stablecoin list does not name the issuing entity or its country.",
          }),
      ...(facts.website ? { website: facts.website } : {}),
    },
    peg_currency: coin.peg,
    backing: facts.backing as StablecoinRecord['backing'],
    ledgers,
    ...(ledgers.length === 0 && facts.ledgersReason
      ? { ledgers_null_reason: facts.ledgersReason }
      : {}),
    ...(facts.deployments.length ? { deployments: facts.deployments } : {}),
    market_cap: {
      value: null,
      value_null_reason: coin.listed ? noFigure : noFigureEsma,
      as_of: null,
      source: null,
    },
    circulating_supply: {
      value: null,
      value_null_reason: coin.listed ? noFigure : noFigureEsma,
      as_of: null,
      source: null,
    },
    mica: classification(facts),
    reserve_attestation: {
      attestor: null,
      attestor_null_reason: NO_REPORT,
      frequency: null,
      frequency_null_reason: NO_REPORT,
      standard: null,
      standard_null_reason: NO_REPORT,
      latest_report_date: null,
      latest_report_date_null_reason: NO_REPORT,
      reserve_composition: null,
      reserve_composition_null_reason: NO_REPORT,
      source: null,
    },
    sources: facts.sources,
    as_of: facts.today,
  };
}
