// Applies the field descriptions (field-descriptions.ts) to generated JSON Schemas, and lists the
// properties still without one. Used where the published schemas (json-schemas.ts) and the
// OpenAPI components (src/openapi/document.ts) are generated, by `npm run schemas -- --undescribed`
// and by the test that keeps every property described (test/unit/field-descriptions.test.ts).
import { FIELD_DESCRIPTIONS, SHARED_DESCRIPTIONS } from './field-descriptions.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const isNull = (v: unknown) => isObject(v) && v['type'] === 'null' && Object.keys(v).length === 1;

/** One property of a schema: its key (`Owner#/properties/a/items/properties/b`) and its node. */
export interface PropertyAt {
  key: string;
  name: string;
  node: Json;
}

/**
 * Every property below `node`, with a path that reads the same in the published file and in the
 * OpenAPI component: a nullable wrapper (`anyOf: [S, null]`, or `type: [T, 'null']`) adds no step,
 * so a key survives the OpenAPI document's rewrite of nullables; a union of several shapes does
 * (`/anyOf/1`). `$ref`s are not followed: the schema they name is an owner of its own.
 */
export function propertiesOf(owner: string, node: unknown, at = ''): PropertyAt[] {
  if (!isObject(node)) return [];
  const out: PropertyAt[] = [];
  const props = node['properties'];
  if (isObject(props))
    for (const [name, sub] of Object.entries(props)) {
      const path = `${at}/properties/${name}`;
      if (isObject(sub)) out.push({ key: `${owner}#${path}`, name, node: sub });
      out.push(...propertiesOf(owner, sub, path));
    }
  for (const k of ['items', 'additionalProperties'] as const)
    out.push(...propertiesOf(owner, node[k], `${at}/${k}`));
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = node[k];
    if (!Array.isArray(options)) continue;
    const shapes = options.map((o, i) => [o, i] as const).filter(([o]) => !isNull(o));
    for (const [o, i] of shapes)
      out.push(...propertiesOf(owner, o, shapes.length === 1 ? at : `${at}/${k}/${i}`));
  }
  return out;
}

/** The schemas of a generated document, each with its owner: `$defs` entries by their name (the zod `meta` id, the same as the OpenAPI component), the root by `rootOwner`. */
export function ownersOf(schema: Json, rootOwner: string): [string, Json][] {
  const defs = isObject(schema['$defs']) ? Object.entries(schema['$defs']) : [];
  const { $defs: _defs, ...root } = schema;
  return [[rootOwner, root], ...defs.filter((d): d is [string, Json] => isObject(d[1]))];
}

/** A `$ref`'s target when it names a `$defs` entry or an OpenAPI component. */
function target(ref: unknown, lookup: (name: string) => Json | undefined): Json | undefined {
  if (typeof ref !== 'string') return undefined;
  const name = /^#\/(?:\$defs|components\/schemas)\/([^/]+)$/.exec(ref)?.[1];
  return name ? lookup(name) : undefined;
}

/** Whether a property's node states what it means (itself, or the schema its `$ref` names). */
function described(node: Json, lookup: (name: string) => Json | undefined): boolean {
  if (typeof node['description'] === 'string' && node['description'].trim()) return true;
  const t = target(node['$ref'], lookup);
  return !!t && typeof t['description'] === 'string' && !!t['description'].trim();
}

/** The shared description that fits a key: the longest tail of its path (`sources/items/properties/id`), else its name. */
function sharedFor(key: string, name: string): string | undefined {
  const path = key.slice(key.indexOf('#') + 1);
  let best: string | undefined;
  for (const tail of Object.keys(SHARED_DESCRIPTIONS))
    if (tail.includes('/') && path.endsWith(`/${tail}`) && (!best || tail.length > best.length))
      best = tail;
  return SHARED_DESCRIPTIONS[best ?? name];
}

/** The description the module gives a property: by its exact key, else a shared one. */
export function descriptionFor(p: Pick<PropertyAt, 'key' | 'name'>): string | undefined {
  return FIELD_DESCRIPTIONS[p.key] ?? sharedFor(p.key, p.name);
}

/**
 * Gives every property of each owner the module's description, unless its zod shape states one
 * (a `.describe()`/`.meta()` in src/domain stays the source for that field). Mutates in place.
 */
export function applyDescriptions(owners: [string, Json][]): void {
  for (const [owner, schema] of owners)
    for (const p of propertiesOf(owner, schema)) {
      if (typeof p.node['description'] === 'string') continue;
      const text = descriptionFor(p);
      if (text) p.node['description'] = text;
    }
}

/** The keys of the properties that have no description, neither their own nor their `$ref`'s. */
export function undescribed(owners: [string, Json][]): string[] {
  const byName = new Map(owners);
  const lookup = (name: string) => byName.get(name);
  return owners.flatMap(([owner, schema]) =>
    propertiesOf(owner, schema)
      .filter((p) => !described(p.node, lookup))
      .map((p) => p.key),
  );
}

/** Keys of FIELD_DESCRIPTIONS that name no property of these owners (a renamed or removed field). */
export function staleKeys(owners: [string, Json][]): string[] {
  const known = new Set(owners.flatMap(([o, s]) => propertiesOf(o, s).map((p) => p.key)));
  return Object.keys(FIELD_DESCRIPTIONS).filter((k) => !known.has(k));
}

/** Shared names and path tails that no property carries. */
export function staleShared(owners: [string, Json][]): string[] {
  const paths = owners.flatMap(([o, s]) => propertiesOf(o, s).map((p) => [p.key, p.name]));
  return Object.keys(SHARED_DESCRIPTIONS).filter((k) =>
    k.includes('/')
      ? !paths.some(([key]) => key!.endsWith(`/${k}`))
      : !paths.some(([, name]) => name === k),
  );
}
