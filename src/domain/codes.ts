// Code tables (data/codes/*.yaml): the vocabularies the records refer to.
import { z } from 'zod';
import { nonEmptyText } from './common.ts';
import { stablecoinScoresTable, type StablecoinScoresTable } from './market.ts';
import { readinessTable, type ReadinessTable } from './mica.ts';

export { stablecoinScoresTable, readinessTable };

export const tficTable = z.strictObject({
  classes: z.array(
    z.strictObject({
      code: z.string().regex(/^[A-Z]{4}$/),
      name: nonEmptyText,
      description: nonEmptyText,
      categories: z
        .array(z.strictObject({ code: z.string().regex(/^[A-Z]{4}$/), name: nonEmptyText }))
        .min(1),
    }),
  ),
});

export const ledgerType = z.enum([
  'public_permissionless',
  'public_permissioned',
  'private_permissioned',
]);

export const ledgerTable = z.strictObject({
  ledgers: z.array(
    z.strictObject({
      code: z.string().regex(/^[A-Z]{3}$/),
      name: nonEmptyText,
      type: ledgerType,
      /** How its tokens are read: an EVM chain answers eth_call (the on-ledger importer reads it). */
      vm: z.enum(['evm', 'solana', 'move', 'stellar', 'xrpl', 'cosmos', 'other']).optional(),
      /** EIP-155 chain id of an EVM chain: an RPC endpoint must report it before it is read. */
      chain_id: z.number().int().positive().nullish(),
      /** The chain's names in the captured sources, e.g. `{ defillama: [ethereum] }`. */
      aliases: z.record(z.string(), z.array(z.string().min(1))).optional(),
    }),
  ),
});

export const micaStatusTable = z.strictObject({
  statuses: z.array(
    z.strictObject({
      code: z.string().regex(/^[a-z_]+$/),
      name: nonEmptyText,
      legal_basis: nonEmptyText,
      description: nonEmptyText,
    }),
  ),
});

const pointsEntry = z.strictObject({
  points: z.number().int().min(0).max(100),
  meaning: nonEmptyText,
});

export const custodyTable = z.strictObject({
  custody_model: z.record(z.string(), pointsEntry),
  segregation: z.record(z.string(), pointsEntry),
  custodian_status: z.record(z.string(), pointsEntry),
  register: z.record(z.string(), pointsEntry),
});

export const gradesTable = z.strictObject({
  custody_grade: z.array(
    z.strictObject({
      grade: z.string().regex(/^[A-Z]$/),
      min_points: z.number().int().min(0),
      meaning: nonEmptyText,
    }),
  ),
  risk_band: z.array(
    z.strictObject({ band: z.string(), max_score: z.number().int().min(0).max(100) }),
  ),
});

export const riskVectorNames = [
  'credit',
  'liquidity',
  'counterparty',
  'smart_contract',
  'regulatory',
  'operational',
] as const;
export type RiskVector = (typeof riskVectorNames)[number];

/**
 * The value any risk factor may take when no source states the fact: it has no points, and the
 * profile serves it with its reason (the asset's `risk_factor_notes`). It is accepted for every
 * factor without a row in data/codes/risk-factors.yaml, so no table can give it points.
 */
export const UNKNOWN_FACTOR = 'unknown';

/**
 * Rules that may set a risk factor from stated facts (`risk_factor_notes.<vector>.<factor>.rule`):
 * the class rules of the asset importers (a fact that follows from the product class, such as a
 * fund unit's ring-fenced structure) and the derivations of src/dataset/derive.ts.
 */
export const FACTOR_RULES = {
  'fund-units':
    'Units of a fund: the structure and the credit of the fund class follow from the product class.',
  'debt-security': 'A debt security: the structure and credit follow from the instrument class.',
  'structured-note': 'A note referencing other assets: the structure follows from the note.',
  'credit-claim': 'A credit claim: the structure and credit follow from the claim.',
  'environmental-asset': 'An environmental asset: the credit follows from the asset class.',
  'commodity-token': 'A commodity token: the credit follows from the commodity held.',
  deposit: 'A tokenized deposit: the structure and credit follow from the deposit.',
  'equity-interest': 'An equity interest: the structure and credit follow from the equity claim.',
  'operating-history':
    'Months from the dated launch to the dataset date (or the end date of an ended asset).',
  'aggregator-flags':
    "An aggregator's stated flags (DefiLlama's RWA sheet, row in `access.origin`): listed on a centralised exchange → exchange_listed; an allowlist to hold or transfer → allowlisted; none on a freely transferable permissionless token → open.",
  'share-class-inherits':
    'A share class takes the fund-level fact its fund (the `parent` record) states, where it states none of its own.',
} as const;
export type FactorRule = keyof typeof FACTOR_RULES;

export const riskFactorTable = z.strictObject({
  vectors: z.record(
    z.enum(riskVectorNames),
    z.record(
      z.string(),
      z
        .record(z.string(), z.number().int().min(0).max(100))
        .refine((values) => !(UNKNOWN_FACTOR in values), {
          error: `"${UNKNOWN_FACTOR}" has no points: it is accepted for every factor without a row`,
        }),
    ),
  ),
});

const domain = z
  .string()
  .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, { error: 'must be a host name such as "esma.europa.eu"' });

/** Source and freshness policy (data/codes/source-policy.yaml). */
export const sourcePolicyTable = z.strictObject({
  max_age_days: z.strictObject({
    aum: z.number().int().positive().nullable(),
    outstanding: z.number().int().positive().nullable(),
    issued: z.number().int().positive().nullable(),
    market_cap: z.number().int().positive().nullable(),
    circulating_supply: z.number().int().positive().nullable(),
  }),
  /**
   * How long a piece of technical evidence counts towards a validation level, per method, in days
   * at the dataset date (src/dataset/validation-level.ts): a record cannot stay L1 on one old read.
   */
  evidence_max_age_days: z.strictObject({
    rpc: z.number().int().positive(),
    explorer: z.number().int().positive(),
    issuer_record: z.number().int().positive(),
    csd_record: z.number().int().positive(),
  }),
  refused_domains: z.array(z.strictObject({ domain, reason: nonEmptyText })),
  regulator_domains: z.array(domain),
  aggregator_domains: z.array(domain),
});
export type SourcePolicyTable = z.infer<typeof sourcePolicyTable>;
export type FigureKind = keyof SourcePolicyTable['max_age_days'];

export type TficTable = z.infer<typeof tficTable>;
export type LedgerTable = z.infer<typeof ledgerTable>;
export type MicaStatusTable = z.infer<typeof micaStatusTable>;
export type CustodyTable = z.infer<typeof custodyTable>;
export type GradesTable = z.infer<typeof gradesTable>;
export type RiskFactorTable = z.infer<typeof riskFactorTable>;

export interface CodeTables {
  tfic: TficTable;
  ledgers: LedgerTable;
  micaStatus: MicaStatusTable;
  custody: CustodyTable;
  grades: GradesTable;
  riskFactors: RiskFactorTable;
  stablecoinScores: StablecoinScoresTable;
  readiness: ReadinessTable;
  sourcePolicy: SourcePolicyTable;
}
