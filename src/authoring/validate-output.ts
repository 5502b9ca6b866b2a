// Validates built output and responses against the published JSON Schemas with one Ajv instance,
// every schema compiled once, all errors reported. The build checks each body as the bodies pass
// writes it (`BodyCheck`); `data:check` makes and checks them all (`validateDataset`).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { generateJsonSchema, schemaId } from '../domain/json-schemas.ts';
import { OPERATIONS_TABLE, type OperationId } from '../api/operations.ts';
import { publishedSchemas, responseSchemaFile, responseSchemas } from './published-schemas.ts';
import { assetProfileBody } from '../api/bodies.ts';
import { datasetViews } from '../api/dataset-views.ts';
import type { Dataset } from '../dataset/artifact.ts';
import { memorySource } from '../api/registry-list.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
let ajv: Ajv2020 | undefined;

function instance(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  for (const p of publishedSchemas()) ajv.addSchema(generateJsonSchema(p));
  return ajv;
}

export function validator(file: string): ValidateFunction {
  const fn = instance().getSchema(schemaId(file));
  if (!fn) throw new Error(`no published schema ${file}`);
  return fn;
}

export function schemaErrors(file: string, value: unknown): string[] {
  const validate = validator(file);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`,
  );
}

/** The errors of `value` under the schema at `ref` (an id, or an id and a JSON pointer). */
function errorsAt(ref: string, value: unknown): string[] {
  const validate = instance().getSchema(ref);
  if (!validate) throw new Error(`no published schema ${ref}`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`,
  );
}

/**
 * Checks bodies as the bodies pass writes them (src/authoring/prebuilt-bodies.ts), each against
 * its operation's response schema, and keeps the errors (at most `limit`, then a count).
 */
export class BodyCheck {
  readonly problems: string[] = [];
  private failed = 0;
  private readonly limit: number;
  constructor(limit = 50) {
    this.limit = limit;
  }

  private note(label: string, errors: string[]): void {
    for (const e of errors) if (++this.failed <= this.limit) this.problems.push(`${label} ${e}`);
  }

  /** A whole body (JSON text) of the operation at `path`. */
  body(path: string, label: string, text: string | Buffer): void {
    const op = OPERATIONS_TABLE.at(path);
    if (!op) throw new Error(`no operation at ${path}`);
    this.note(label, schemaErrors(responseSchemaFile(op), JSON.parse(text.toString())));
  }

  /**
   * One record of a list body written record by record (the body is never one string): checked
   * against the schema of the body's `data` items; the envelope is checked with `data` empty.
   */
  listRecord(path: string, label: string, record: unknown): void {
    this.note(label, errorsAt(listItemsRef(path), record));
  }

  /** Throws with every kept error, if there is one. */
  assert(): void {
    if (this.failed === 0) return;
    const more = this.failed > this.limit ? `\n… and ${this.failed - this.limit} more` : '';
    throw new Error(
      `The built dataset does not match the published schemas:\n${this.problems.join('\n')}${more}`,
    );
  }
}

const itemsRefs = new Map<string, string>();
/** `<schema id>#<pointer to the items of data>`, found through the root's $ref. */
function listItemsRef(path: string): string {
  let ref = itemsRefs.get(path);
  if (ref) return ref;
  const published = responseSchemas().find((p) => OPERATIONS_TABLE.at(path)?.response === p.schema);
  if (!published) throw new Error(`no response schema for ${path}`);
  const root = generateJsonSchema(published);
  const pointer = typeof root['$ref'] === 'string' ? root['$ref'].slice(1) : '';
  ref = `${schemaId(published.file)}#${pointer}/properties/data/items`;
  itemsRefs.set(path, ref);
  return ref;
}

/**
 * Every body the dataset will serve, checked against its response schema: each dataset
 * operation's unfiltered body (made by its view, as the build prerenders it) and every profile.
 */
export function validateDataset(dataset: Dataset): string[] {
  const problems: string[] = [];
  const views = datasetViews(dataset, memorySource(dataset));
  for (const op of OPERATIONS_TABLE.datasets) {
    const result = views.get(op.path)!.compute({}, 'json');
    if (!result.ok) problems.push(`${op.operationId} ${result.problem.detail}`);
    else
      problems.push(
        ...schemaErrors(responseSchemaFile(op), JSON.parse(result.text.toString())).map(
          (e) => `${op.operationId} ${e}`,
        ),
      );
  }
  const lookup = responseSchemaFile(
    OPERATIONS_TABLE.byId('getRegistryAsset' satisfies OperationId)!,
  );
  for (const asset of dataset.assets) {
    const body = JSON.parse(assetProfileBody(dataset, asset)) as unknown;
    problems.push(...schemaErrors(lookup, body).map((e) => `${asset.tfin} ${e}`));
  }
  return problems;
}
