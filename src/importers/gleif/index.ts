// npm run data:import -- gleif (--file F | --url U) [--write]
// Checks every issuer LEI of data/assets and data/stablecoins against GLEIF's records (the public
// API's JSON answer): unknown LEIs, registrations not in force, inactive entities and legal names
// that match none of the record's names are reported; the GLEIF facts of the data's LEIs are
// written to data/registers/gleif.yaml with the import's provenance.
import { ImportError } from '../shared/errors.ts';
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { provenanceOf } from '../shared/provenance.ts';
import { readDataDocs } from '../shared/data-docs.ts';
import { findings } from './findings.ts';
import { issuerLeis } from '../shared/issuer-leis.ts';
import { API, readGleif } from './records.ts';
import { renderSnapshot, SNAPSHOT } from './snapshot.ts';

/** The query that answers for `leis` (GLEIF serves up to 200 records a page). */
export const queryFor = (leis: readonly string[]) =>
  `${API}?filter[lei]=${[...leis].sort().join(',')}&page[size]=200`;

async function run({ root, input, today }: ImportContext): Promise<ImportResult> {
  const answer = readGleif(input!);
  const leis = issuerLeis([
    ...readDataDocs(root, 'data/assets'),
    ...readDataDocs(root, 'data/stablecoins'),
  ]);
  const records = new Map(answer.records.map((r) => [r.lei, r]));
  const entries = [...leis].flatMap(([lei, uses]) => {
    const record = records.get(lei);
    return record ? [{ record, uses }] : [];
  });
  // An answer to another query would replace the committed snapshot with nothing.
  if (leis.size > 0 && entries.length === 0)
    throw new ImportError(
      { input: input!.name },
      `has none of the ${leis.size} issuer LEIs the data cites (an answer to another query?)`,
      `GLEIF's answer to ${queryFor([...leis.keys()])}`,
    );
  const report = [
    `GLEIF answer: ${answer.records.length} record(s); the data cites ${leis.size} issuer LEI(s), ${entries.length} found`,
    ...findings(leis, records),
  ];
  if (entries.length < leis.size)
    report.push(`query for every LEI the data cites: ${queryFor([...leis.keys()])}`);
  // A captured file is recorded under the query that returns its records.
  const sourceUrl =
    input!.kind === 'url' ? input!.name : queryFor(answer.records.map((r) => r.lei));
  const provenance = provenanceOf(input!, sourceUrl, answer.records.length, today);
  return {
    changes: [{ path: SNAPSHOT, after: renderSnapshot(provenance, answer.published, entries) }],
    report,
  };
}

export const gleifImporter: Importer = {
  name: 'gleif',
  summary: 'issuer LEIs checked against GLEIF records; snapshot in data/registers/gleif.yaml',
  needsInput: true,
  run,
};
