// Every published schema as owners of properties (src/domain/schema-descriptions.ts): each data
// file's and response's JSON Schema (schemas/, its root by file, its $defs by id) and each
// component of /openapi.json (by id). What `npm run schemas -- --undescribed` and the field
// description test read.
import { generateJsonSchema } from '../src/domain/json-schemas.ts';
import { ownersOf } from '../src/domain/schema-descriptions.ts';
import { publishedSchemas } from '../src/authoring/published-schemas.ts';
import { componentSchemas, harden } from '../src/openapi/document.ts';

type Json = Record<string, unknown>;

/** Owners of the published files, then those of the OpenAPI components (`openapi:` before the id). */
export function schemaOwners(): { files: [string, Json][]; components: [string, Json][] } {
  const files = publishedSchemas().flatMap((p) => ownersOf(generateJsonSchema(p), p.file));
  const components = Object.entries(harden(componentSchemas()) as Record<string, Json>);
  return { files, components };
}
