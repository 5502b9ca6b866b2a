// npm run data:import -- levels [--write]
// Every asset and series record's validation level set to the one its evidence supports at the
// dataset date (data/release.yaml; TAI_TODAY in tests): evidence past its method's maximum age
// stops counting, so a record cannot stay L1 on one old read. The refresh runs it last.
import type { ImportContext, ImportResult, Importer } from '../shared/importer.ts';
import { readDataDocs, renderDoc } from '../shared/data-docs.ts';
import {
  ASSET_DIRS,
  datasetDateOf,
  evidenceMaxAge,
  levelLine,
  programmesOf,
  settleLevel,
} from '../shared/levels.ts';

async function run({ root, today }: ImportContext): Promise<ImportResult> {
  const files = ASSET_DIRS.flatMap((dir) => readDataDocs(root, dir));
  const programmes = programmesOf(files);
  const maxAge = evidenceMaxAge(root);
  const date = datasetDateOf(root, today);
  const report: string[] = [];
  const changes = files.flatMap((file) => {
    const settled = settleLevel(file, programmes, maxAge, date);
    if (!settled) return [];
    report.push(levelLine(String(file.doc.get('tfin')), settled));
    return [{ path: file.path, after: renderDoc(file) }];
  });
  report.unshift(`validation levels at ${date}: ${changes.length} record(s) changed`);
  return { changes, report };
}

export const levelsImporter: Importer = {
  name: 'levels',
  summary: 'validation levels set to what their evidence supports at the dataset date',
  needsInput: false,
  run,
};
