// The API URL of each record of a release manifest (the changelog links every added, changed or
// removed record to it), from the operations table: the operation whose entry lists the record's
// kind under `records`, with the parameter that selects one record.
import type { RecordKind } from '../dataset/release-manifest.ts';
import { OPERATIONS_TABLE, type OperationsTable } from './operations.ts';

/** The API URL that answers with the record (at `version` when given: a removed record). */
export function recordUrl(
  kind: RecordKind,
  id: string,
  version?: string,
  table: OperationsTable = OPERATIONS_TABLE,
): string {
  const op = table.list.find((o) => o.records?.[kind] !== undefined);
  if (!op) throw new Error(`no operation answers the ${kind} records`);
  const param = op.records![kind];
  const query = [
    ...(param ? [`${param}=${encodeURIComponent(id)}`] : []),
    ...(version ? [`dataset_version=${version}`] : []),
  ];
  return query.length ? `${op.path}?${query.join('&')}` : op.path;
}
