// The rule `validation-evidence` (npm run data:check).
// Every evidence entry names a contract the record lists and where it was read; the level is the
// one the methodology's rule computes from the evidence (src/dataset/validation-level.ts), no
// higher and no lower.
import { evidenceOf, type AssetRecord } from '../../domain/asset.ts';
import { LEVEL_RANK, supportedLevel } from '../../dataset/validation-level.ts';
import { perRecord, type CheckContext, type Report } from './rule.ts';

const DOCUMENT_KINDS = new Set(['prospectus', 'regulatory_filing']);
const CONFIRMATION_KINDS = new Set(['csd_or_registrar', 'transfer_agent']);

function checkEvidenceEntries(record: AssetRecord, ctx: CheckContext, report: Report): void {
  const ids = new Map(record.sources.map((s) => [s.id, s]));
  const ledgerTypes = new Map(ctx.codes.ledgers.ledgers.map((l) => [l.code, l.type]));
  evidenceOf(record.validation).technical.forEach((e, i) => {
    const at = ['validation', 'evidence', 'technical', i];
    const entry = record.ledgers.find((l) => l.ledger === e.ledger);
    if (!entry)
      report(
        [...at, 'ledger'],
        `${e.ledger} is not one of this asset's ledgers`,
        `use one of: ${record.ledgers.map((l) => l.ledger).join(', ')}`,
      );
    else if (e.contract_address !== entry.contract_address)
      report(
        [...at, 'contract_address'],
        `differs from the ${e.ledger} ledger entry's contract_address (${entry.contract_address ?? 'null'})`,
        'evidence is about the published contract: make the two the same',
      );
    if (e.contract_address === null && ledgerTypes.get(e.ledger) !== 'private_permissioned')
      report(
        [...at, 'contract_address'],
        `is null on ${e.ledger}, a public ledger`,
        'technical evidence on a public ledger names the contract it verified',
      );
    // A read of the ledger records the supply it showed; an issuer's record confirms the contract.
    if (e.method === 'rpc' && e.code !== false && (e.supply === null || e.supply === undefined))
      report(
        [...at, 'supply'],
        'is missing: a ledger read records the total supply it read',
        'run npm run data:import -- onchain, which records it',
      );
    if (e.method === 'rpc') {
      if (e.chain_id === undefined || e.block_number === undefined || !e.block_time)
        report(
          at,
          'is an rpc read without chain_id, block_number and block_time',
          'run npm run data:import -- onchain, which records them',
        );
    } else if (e.record) {
      if (e.method !== 'issuer_record')
        report(
          [...at, 'record'],
          `is for method issuer_record, not ${e.method}`,
          'name the source of this record in source instead',
        );
    } else if (!e.source)
      report(
        [...at, 'source'],
        `is required for method ${e.method}`,
        'name the source that shows the contract (or, for an issuer record, give record)',
      );
    else if (!ids.has(e.source))
      report(
        [...at, 'source'],
        `names "${e.source}", which is not a source of this record`,
        'add the source to sources, or correct the id',
      );
  });
  const referenced = (list: 'documents' | 'confirmation', kinds: Set<string>, what: string) =>
    evidenceOf(record.validation)[list].forEach((id, i) => {
      const source = ids.get(id);
      if (!source)
        report(
          ['validation', 'evidence', list, i],
          `names "${id}", which is not a source of this record`,
          'add the source to sources, or correct the id',
        );
      else if (!kinds.has(source.kind))
        report(
          ['validation', 'evidence', list, i],
          `"${id}" is a ${source.kind} source, not ${what}`,
          `use a source of kind ${[...kinds].join(' or ')}`,
        );
    });
  referenced('documents', DOCUMENT_KINDS, 'a prospectus or regulatory filing');
  referenced('confirmation', CONFIRMATION_KINDS, 'a CSD, registrar or transfer-agent record');
}

export const validationEvidence = perRecord<AssetRecord>(
  'validation-evidence',
  (ctx) => ctx.assets,
  ({ record }, ctx, report) => {
    checkEvidenceEntries(record, ctx, report);
    const { level } = record.validation;
    const outcome = supportedLevel(
      {
        short_name: record.short_name,
        ledgers: record.ledgers,
        validation: record.validation,
        sourceKinds: new Map(record.sources.map((src) => [src.id, src.kind])),
        custodyNamed: !!(record.custody.custodian || record.custody.transfer_agent),
      },
      ctx.codes.sourcePolicy.evidence_max_age_days,
      ctx.datasetDate,
    );
    if (outcome.level !== level) {
      const higher = LEVEL_RANK[level] > LEVEL_RANK[outcome.level];
      report(
        ['validation', 'level'],
        higher
          ? `is ${level}, but the evidence supports ${outcome.level} at the dataset date ${ctx.datasetDate}: ${outcome.missing[0] ?? ''}`
          : `is ${level}, but the evidence supports ${outcome.level} at the dataset date ${ctx.datasetDate}`,
        higher
          ? `set the level to "${outcome.level}" (npm run data:import -- levels --write does), or add the missing evidence`
          : `set the level to "${outcome.level}" (npm run data:import -- levels --write does): the level follows the evidence`,
      );
    }
  },
);
