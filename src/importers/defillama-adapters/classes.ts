// How an imported record is classed and what follows from its class and structure alone. The
// TFIC comes from the adapter's asset class (or the universe file's override); the MiCA status,
// its rationale and the credit factors come from a named rule per TFIC class (named in the
// record's risk_factor_notes). Every other risk factor no source states is `unknown`, with the
// reason in product terms; an editor who finds the fact in a primary source replaces it.
import type { AssetRecord } from '../../domain/asset.ts';

/** The adapter's asset class → TFIC (products with no entry here are reported, not imported). */
export const TFIC_OF_ADAPTER_CLASS: Record<string, string> = {
  tokenized_mmf: 'FUND.MMFD',
  tokenized_treasury_fund: 'FUND.TBIL',
  tokenized_treasury_pool: 'FUND.TBIL',
  tokenized_treasury: 'FUND.TBIL',
  tokenized_fund: 'FUND.BOND',
  tokenized_private_credit_fund: 'FUND.PCRD',
  tokenized_clo: 'FUND.BOND',
  tokenized_fixed_income: 'FUND.BOND',
  tokenized_bond: 'DEBT.CORP',
  // Protocol or issuer tokens backed by bonds the issuer holds: notes referencing the bonds.
  tokenized_bond_index: 'STRU.NOTE',
  tokenized_sovereign_bond: 'STRU.NOTE',
  tokenized_credit: 'CRED.LOAN',
  tokenized_gold: 'CMDY.GOLD',
  tokenized_gemstone: 'CMDY.OTHR',
  tokenized_real_estate: 'EQTY.PRIV',
};

type Risk = AssetRecord['risk_factors'];

export interface ClassRule {
  /** The rule's name, cited in the record's MiCA rationale and validation basis. */
  name: string;
  mica: AssetRecord['mica'];
  credit: { underlying_credit: string; structure: string };
}

const FUND_CREDIT: Record<string, string> = {
  MMFD: 'sovereign_other_investment_grade',
  TBIL: 'sovereign_other_investment_grade',
  BOND: 'diversified_investment_grade_pool',
  PCRD: 'unrated_private_credit',
  PEQT: 'unrated_equity_or_commodity',
  MULT: 'unrated_equity_or_commodity',
};

/** A commodity token: an asset-referenced token, unless it stands for a carbon credit itself. */
function commodityRule(category: string): ClassRule {
  if (category === 'CRBN')
    return {
      name: 'environmental-asset',
      mica: {
        status: 'other_crypto_asset',
        rationale:
          'Rule environmental-asset: a token representing a carbon credit stands for the credit itself rather than referencing the value of other assets or currencies, so it is treated as neither an e-money nor an asset-referenced token; unless it is an EU emission allowance (a financial instrument, MiFID II Annex I Section C(11)) it is another crypto-asset under MiCA Title II. Stated from the product structure; no regulator has classified this token.',
      },
      credit: {
        underlying_credit: 'unrated_equity_or_commodity',
        structure: 'unsecured_or_subordinated',
      },
    };
  return {
    name: 'commodity-token',
    mica: {
      status: 'art',
      rationale:
        'Rule commodity-token: a token whose value references a physical commodity falls within the definition of an asset-referenced token (MiCA Art. 3(1)(6)). Stated from the product structure: it records the classification, not an authorised EU offer.',
    },
    credit: {
      underlying_credit: 'unrated_equity_or_commodity',
      structure: 'secured_or_overcollateralised',
    },
  };
}

/** The named rule for a TFIC code. */
export function ruleFor(tfic: string): ClassRule {
  const [cls, category] = tfic.split('.') as [string, string];
  switch (cls) {
    case 'FUND':
      return {
        name: 'fund-units',
        mica: {
          status: 'financial_instrument',
          rationale:
            'Rule fund-units: units in a collective investment undertaking are financial instruments (MiFID II Annex I Section C(3)), so MiCA does not apply (Art. 2(4)(a)). Stated from the product class; no regulator has classified this token.',
        },
        credit: {
          underlying_credit: FUND_CREDIT[category] ?? 'unrated_private_credit',
          structure: 'fund_ring_fenced',
        },
      };
    case 'DEBT':
      return {
        name: 'debt-security',
        mica: {
          status: 'financial_instrument',
          rationale:
            'Rule debt-security: a bond issued as a token is a transferable security (MiFID II Art. 4(1)(44)(b)), so MiCA does not apply (Art. 2(4)(a)). Stated from the product class; no regulator has classified this token.',
        },
        credit: {
          underlying_credit: 'unrated_private_credit',
          structure: 'direct_issuer_obligation',
        },
      };
    case 'STRU':
      return {
        name: 'structured-note',
        mica: {
          status: 'financial_instrument',
          rationale:
            'Rule structured-note: a note or certificate whose return references another asset is a transferable security (MiFID II Art. 4(1)(44)(c)), so MiCA does not apply (Art. 2(4)(a)). Stated from the product structure; no regulator has classified this token.',
        },
        credit: {
          underlying_credit:
            category === 'TRCK' ? 'unrated_equity_or_commodity' : 'unrated_private_credit',
          structure: 'unsecured_or_subordinated',
        },
      };
    case 'CRED':
      return {
        name: 'credit-claim',
        mica: {
          status: 'financial_instrument',
          rationale:
            'Rule credit-claim: a transferable claim on a pool of loans whose return comes from borrowers is most likely a transferable security or a fund unit under MiFID II, outside MiCA (Art. 2(4)(a)). Stated from the product structure; no regulator has classified this token.',
        },
        credit: {
          underlying_credit: 'unrated_private_credit',
          structure: 'unsecured_or_subordinated',
        },
      };
    case 'CMDY':
      return commodityRule(category);
    case 'DEPO':
      return {
        name: 'deposit',
        mica: {
          status: 'deposit',
          rationale:
            'Rule deposit: a token representing a bank deposit is a deposit, which MiCA excludes (Art. 2(4)(b)); banking law applies.',
        },
        credit: {
          underlying_credit: 'bank_investment_grade',
          structure: 'deposit_guarantee_eligible',
        },
      };
    default:
      return {
        name: 'equity-interest',
        mica: {
          status: 'financial_instrument',
          rationale:
            'Rule equity-interest: a token representing shares or a participation in a company is a transferable security (MiFID II Art. 4(1)(44)(a)), so MiCA does not apply (Art. 2(4)(a)). Stated from the product structure; no regulator has classified this token.',
        },
        credit: {
          underlying_credit: 'unrated_equity_or_commodity',
          structure: 'unsecured_or_subordinated',
        },
      };
  }
}

/** What each factor no source of an imported record states leaves open, in product terms. */
export const UNSTATED: Record<string, Record<string, string>> = {
  liquidity: {
    redemption:
      'No source of this record states whether, or how often, holders can redeem with the issuer.',
    secondary_market: 'No source of this record states where the token trades.',
  },
  counterparty: {
    custodian_or_depository:
      'No source of this record names who holds the assets backing the token.',
    issuer_or_sponsor: 'No source of this record states whether the issuer is a regulated entity.',
  },
  smart_contract: {
    ledger_exposure:
      'No source of this record states whether the token can be held by any address or only by allowlisted holders.',
    code_assurance: 'No source of this record cites an audit of the token contract.',
  },
  regulatory: {
    regime:
      'No source of this record states the regime the token is offered under (prospectus, fund rules or private placement).',
    eu_access:
      'No source of this record states whether the token is offered to investors in the EU.',
  },
  operational: {
    service_providers: 'No source of this record names an administrator or an auditor.',
  },
};

/** The values the importers wrote for unstated factors before `unknown` existed (replaced on re-import). */
export const FORMER_WORST_CASE: Record<string, Record<string, string>> = {
  liquidity: { redemption: 'quarterly_or_longer', secondary_market: 'none' },
  counterparty: {
    custodian_or_depository: 'unregulated_or_undisclosed',
    issuer_or_sponsor: 'unregulated_entity',
  },
  smart_contract: { ledger_exposure: 'public_permissionless_open', code_assurance: 'none_known' },
  regulatory: { regime: 'unregulated', eu_access: 'not_offered_in_eu' },
  operational: { service_providers: 'undisclosed' },
};

export type RiskNotes = Record<string, Record<string, { reason?: string; rule?: string }>>;

/** Risk factors of an imported record: the class rule's credit facts, every other factor unknown. */
export function riskFactorsFor(rule: ClassRule): Risk {
  const unknown = (vector: string) =>
    Object.fromEntries(Object.keys(UNSTATED[vector]!).map((f) => [f, 'unknown']));
  return {
    credit: rule.credit,
    liquidity: unknown('liquidity'),
    counterparty: unknown('counterparty'),
    smart_contract: unknown('smart_contract'),
    regulatory: unknown('regulatory'),
    operational: unknown('operational'),
  };
}

/** The notes of riskFactorsFor's values: the rule that set each credit factor, the reason of each unknown. */
export function riskFactorNotesFor(rule: ClassRule): NonNullable<AssetRecord['risk_factor_notes']> {
  return {
    credit: Object.fromEntries(Object.keys(rule.credit).map((f) => [f, { rule: rule.name }])),
    ...Object.fromEntries(
      Object.entries(UNSTATED).map(([vector, factors]) => [
        vector,
        Object.fromEntries(Object.entries(factors).map(([f, reason]) => [f, { reason }])),
      ]),
    ),
  } as NonNullable<AssetRecord['risk_factor_notes']>;
}

export const UNKNOWN_CUSTODY: AssetRecord['custody'] = {
  custodian: null,
  transfer_agent: null,
  model: 'undisclosed',
  segregation: 'undisclosed',
  custodian_status: 'none_named',
  register: 'undisclosed',
};

export const UNKNOWN_SETTLEMENT: AssetRecord['settlement'] = {
  mechanism: 'onchain_token_offchain_cash',
  cash_leg: 'No source states how subscriptions, redemptions or transfers are paid for.',
  finality:
    'A transfer is final on the ledger when its block is final; no source states when legal ownership passes.',
};
