// Every property of every published schema says what it means (issue 38): the data-file schemas,
// the response schemas and the problem (schemas/), and the components of /openapi.json. A key of
// src/domain/field-descriptions.ts that names no property (a field renamed or removed) fails too.
import { describe, expect, it } from 'vitest';
import { schemaOwners } from '../../scripts/schema-owners.ts';
import { FIELD_DESCRIPTIONS } from '../../src/domain/field-descriptions.ts';
import {
  applyDescriptions,
  propertiesOf,
  staleKeys,
  staleShared,
  undescribed,
} from '../../src/domain/schema-descriptions.ts';

const { files, components } = schemaOwners();
const fix =
  'add a description for each key to src/domain/field-descriptions.ts (or `.describe()` in its zod shape); `npm run schemas -- --undescribed` lists them';

describe('field descriptions', () => {
  it('covers properties of every kind of published schema', () => {
    const owners = [...files, ...components].map(([owner]) => owner);
    for (const expected of ['data/asset-record.schema.json', 'StablecoinsResponse', 'Problem'])
      expect(owners).toContain(expected);
    expect(files.flatMap(([o, s]) => propertiesOf(o, s)).length).toBeGreaterThan(1000);
  });

  it(`gives every property of schemas/ a description (${fix})`, () => {
    expect(undescribed(files)).toEqual([]);
  });

  it(`gives every property of the /openapi.json components a description (${fix})`, () => {
    expect(undescribed(components)).toEqual([]);
  });

  it('has no key that names no property (remove or rename the key in src/domain/field-descriptions.ts)', () => {
    expect(staleKeys([...files, ...components])).toEqual([]);
    expect(staleShared([...files, ...components])).toEqual([]);
  });

  it('finds an undescribed property and a stale key by their keys', () => {
    const schema = {
      type: 'object',
      properties: {
        said: { type: 'string', description: 'Said.' },
        unsaid: {
          anyOf: [{ type: 'object', properties: { deep: { type: 'number' } } }, { type: 'null' }],
        },
      },
    };
    expect(undescribed([['Probe', schema]])).toEqual([
      'Probe#/properties/unsaid',
      'Probe#/properties/unsaid/properties/deep',
    ]);
    expect(staleKeys([['Probe', schema]]).length).toBeGreaterThan(0);
  });

  it('never replaces a description the zod shape states, and fills one it does not', () => {
    const [key, text] = Object.entries(FIELD_DESCRIPTIONS)[0]!;
    const [owner, pointer] = key.split('#') as [string, string];
    const names = pointer.split('/properties/').slice(1);
    expect(pointer).toBe(names.map((n) => `/properties/${n}`).join(''));
    const nest = (description?: string): Record<string, unknown> =>
      names.reduceRight<Record<string, unknown>>(
        (inner, name) => ({ type: 'object', properties: { [name]: inner } }),
        { type: 'string', ...(description ? { description } : {}) },
      );
    const leaf = (schema: Record<string, unknown>) =>
      propertiesOf(owner, schema).find((p) => p.key === key)!.node['description'];
    const stated = nest('Stated in zod.');
    applyDescriptions([[owner, stated]]);
    expect(leaf(stated)).toBe('Stated in zod.');
    const bare = nest();
    applyDescriptions([[owner, bare]]);
    expect(leaf(bare)).toBe(text);
  });
});
