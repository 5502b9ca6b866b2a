// The record-by-record check mechanism: a record that failed its schema may lack fields (its
// errors end the check for that record); on a valid record an error is a bug and must surface.
import { describe, expect, it } from 'vitest';
import type { Loaded } from '../../src/dataset/loaded.ts';
import { perRecord, type CheckContext } from '../../src/authoring/rules/rule.ts';

interface Rec {
  id: string;
  nested?: { value: string };
}

const loaded = (record: Rec, schemaFailed?: true): Loaded<Rec> => ({
  file: { file: `data/x/${record.id}.yaml`, value: record, locate: () => null },
  record,
  ...(schemaFailed ? { schemaFailed } : {}),
});

const readsNested = (items: Loaded<Rec>[]) =>
  perRecord<Rec>(
    'reads-nested',
    () => items,
    ({ record }, _ctx, report) => {
      if (record.nested!.value === 'bad') report(['nested', 'value'], 'is bad', 'make it good');
    },
  );

const ctx = {} as CheckContext;

describe('perRecord', () => {
  it('reports problems of every record, schema-failed ones included', () => {
    const check = readsNested([loaded({ id: 'a', nested: { value: 'bad' } }, true)]);
    expect(check.run(ctx).map((p) => [p.file, p.rule, p.message])).toEqual([
      ['data/x/a.yaml', 'reads-nested', 'is bad'],
    ]);
  });
  it('skips a schema-failed record that lacks what the check reads', () => {
    const check = readsNested([
      loaded({ id: 'a' }, true),
      loaded({ id: 'b', nested: { value: 'bad' } }),
    ]);
    expect(check.run(ctx).map((p) => p.file)).toEqual(['data/x/b.yaml']);
  });
  it('throws when the check fails on a valid record (a bug in the check, not in the data)', () => {
    expect(() => readsNested([loaded({ id: 'a' })]).run(ctx)).toThrow(TypeError);
  });
});
