// The rule `tfin-parts` (npm run data:check).
import { parseTfin } from '../../domain/identifiers.ts';
import { oneOf, perAsset } from './rule.ts';

export const tfinParts = perAsset('tfin-parts', ({ record }, { codes }, report) => {
  const parts = parseTfin(record.tfin);
  if (!parts) return;
  const classes = codes.tfic.classes.map((c) => c.code);
  const ledgers = codes.ledgers.ledgers.map((l) => l.code);
  if (!classes.includes(parts.assetClass))
    report(
      ['tfin'],
      `uses the unknown class code "${parts.assetClass}"`,
      oneOf(parts.assetClass, classes),
    );
  if (!ledgers.includes(parts.ledger))
    report(
      ['tfin'],
      `uses the unknown ledger code "${parts.ledger}"`,
      oneOf(parts.ledger, ledgers, 'data/codes/ledgers.yaml'),
    );
  if (record.tfic.split('.')[0] !== parts.assetClass)
    report(
      ['tfic'],
      `is in class ${record.tfic.split('.')[0]} but the TFIN says ${parts.assetClass}`,
      'make the TFIN class and the TFIC class the same',
    );
  const first = record.ledgers[0]?.ledger;
  if (first && first !== parts.ledger)
    report(
      ['ledgers', 0, 'ledger'],
      `is ${first} but the TFIN names ${parts.ledger} as the ledger of first issuance`,
      'list the ledger of first issuance first, or correct the TFIN',
    );
  // Without a dated launch the TFIN year is the year the record was first registered.
  const launch = record.dates.launch_date ?? '';
  const launchYear = Number(launch.slice(0, 4));
  // A malformed launch date is the schema's to report.
  if (/^\d{4}-\d{2}-\d{2}$/.test(launch) && launchYear !== parts.year)
    report(
      ['tfin'],
      `says ${parts.year} but dates.launch_date is in ${launchYear}`,
      'the TFIN year is the issuance year: make them agree',
    );
  if (parts.sequence === 0) report(['tfin'], 'has sequence 0000', 'sequences start at 0001');
});
