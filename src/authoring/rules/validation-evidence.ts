// The rule `validation-evidence` (npm run data:check).
import { evidenceOf, type AssetRecord } from '../../domain/asset.ts';
import { perRecord, type CheckContext, type Report } from './rule.ts';

const LEVEL_RANK = { unverified: 0, L1: 1, L2: 2, L3: 3 } as const;
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
    // L1 is contract, token standard and supply: a record that did not show the supply is not L1 evidence.
    if (e.supply === null || e.supply === undefined)
      report(
        [...at, 'supply'],
        'is missing: technical evidence records the supply the ledger or the record showed',
        'copy the supply (with the record\'s date in as_of), run the on-ledger importer, or remove the entry and set the level to "unverified"',
      );
    if (e.method === 'rpc') {
      if (e.chain_id === undefined || e.block_number === undefined || !e.block_time)
        report(
          at,
          'is an rpc read without chain_id, block_number and block_time',
          'run npm run data:import -- onchain, which records them',
        );
    } else if (!e.source)
      report(
        [...at, 'source'],
        `is required for method ${e.method}`,
        'name the source that shows the contract and supply',
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
    const evidence = evidenceOf(record.validation);
    const rank = LEVEL_RANK[level];
    const at = ['validation', 'level'];
    if (rank >= 1 && evidence.technical.length === 0)
      report(
        at,
        `${level} needs technical evidence (L1: contract, token standard and supply from an rpc read or a dated explorer, issuer or CSD record)`,
        'add validation.evidence.technical, or set the level to "unverified"',
      );
    if (rank >= 2 && evidence.documents.length === 0)
      report(
        at,
        `${level} needs the documents of the research audit`,
        'list the prospectus or regulatory filings read in validation.evidence.documents, or lower the level to L1',
      );
    if (rank >= 2 && !record.custody.custodian && !record.custody.transfer_agent)
      report(
        at,
        `${level} needs the custodian mapping`,
        'name custody.custodian or custody.transfer_agent, or lower the level to L1',
      );
    if (rank >= 3 && evidence.confirmation.length === 0)
      report(
        at,
        'L3 needs institutional confirmation',
        'list the CSD, registrar or transfer-agent record in validation.evidence.confirmation, or lower the level to L2',
      );
  },
);
