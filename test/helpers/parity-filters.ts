// The filtered queries the fast-path parity test (test/integration/fast-path-parity.test.ts) asks
// each dataset operation, read from the operations table: one query per parameter that has an
// example (the entry's `examples(dataset)`, real values, first; the parameter's own example else).
// The format, the cursor and the dataset version are asked by cases of their own. A new
// operation or parameter is asked without anyone writing its query down
// (test/unit/operations-table.test.ts checks this with its synthetic operation).
import type { DatasetCore } from '../../src/dataset/artifact.ts';
import { DELIVERY_PARAM, FORMAT_PARAM } from '../../src/api/bulk.ts';
import type { OperationsTable } from '../../src/api/operations.ts';
import { DATASET_VERSION_PARAM } from '../../src/api/version-param.ts';

// delivery= is answered by the pipeline before either path's answer (signed-downloads.ts).
const ASKED_APART = new Set([
  FORMAT_PARAM.name,
  DATASET_VERSION_PARAM.name,
  DELIVERY_PARAM.name,
  'cursor',
]);

/** Each dataset operation's path with its filtered queries (`?name=value`), in the table's order. */
export function parityFilters(table: OperationsTable, dataset: DatasetCore): Map<string, string[]> {
  const filters = new Map<string, string[]>();
  for (const op of table.datasets) {
    const examples = op.examples(dataset);
    const queries = op
      .params(dataset)
      .filter((p) => !ASKED_APART.has(p.name))
      .flatMap((p) => {
        const value = examples[p.name] ?? p.example;
        return value === undefined ? [] : [`?${new URLSearchParams({ [p.name]: value })}`];
      });
    if (!queries.length) throw new Error(`${op.path}: no parameter with an example to filter by`);
    filters.set(op.path, queries);
  }
  return filters;
}
