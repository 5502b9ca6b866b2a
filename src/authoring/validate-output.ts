// Validates built output and responses against the published JSON Schemas with one Ajv instance,
// every schema compiled once, all errors reported.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { generateJsonSchema, schemaId } from '../domain/json-schemas.ts';
import { OPERATIONS_TABLE, type OperationId } from '../api/operations.ts';
import { publishedSchemas, responseSchemaFile } from './published-schemas.ts';
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
