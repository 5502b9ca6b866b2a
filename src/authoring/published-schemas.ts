// Every published JSON Schema (schemas/, written by `npm run schemas`, drift-checked): the data
// files' and the problem body's (src/domain/json-schemas.ts) and one per operation's 200 body,
// made from its entry in the operations table (its path names the file and the title).
import { DOMAIN_SCHEMAS, generateJsonSchema, type Published } from '../domain/json-schemas.ts';
import {
  API_ROOT,
  OPERATIONS_TABLE,
  type Operation,
  type OperationsTable,
} from '../api/operations.ts';

/** schemas/<this>: the path below the API root, `/` as `-` (`v1/market-stablecoins.schema.json`). */
export function responseSchemaFile(op: Pick<Operation, 'path'>): string {
  const below = op.path.slice(`${API_ROOT}/`.length).replaceAll('/', '-');
  return `${API_ROOT.slice(1)}/${below}.schema.json`;
}

/** The response schema of each operation in `table`. */
export function responseSchemas(table: OperationsTable = OPERATIONS_TABLE): Published[] {
  return table.list.map((op) => ({
    file: responseSchemaFile(op),
    title: `GET ${op.path} response`,
    schema: op.response,
    io: 'output',
  }));
}

export function publishedSchemas(table: OperationsTable = OPERATIONS_TABLE): Published[] {
  return [...DOMAIN_SCHEMAS, ...responseSchemas(table)];
}

/** Each published schema's file (below schemas/) and its text. */
export function generateAll(table: OperationsTable = OPERATIONS_TABLE): Map<string, string> {
  return new Map(
    publishedSchemas(table).map((p) => [
      p.file,
      `${JSON.stringify(generateJsonSchema(p), null, 2)}\n`,
    ]),
  );
}
