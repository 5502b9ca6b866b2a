// What importers that create records share: TFINs allocated as the registry does (the next free
// sequence of a class, ledger and year) and a new record rendered as editors write YAML.
import { parseDocument } from 'yaml';
import { nodeFor } from './data-docs.ts';
import { ImportError } from './errors.ts';

/** TFINs as the registry allocates them: the next free sequence of a class, ledger and year. */
export function allocator(existing: Iterable<string>) {
  const taken = new Set(existing);
  return (cls: string, ledger: string, year: string) => {
    for (let seq = 1; seq < 10_000; seq++) {
      const tfin = `TFIN-${cls}-${ledger}-${year}-${String(seq).padStart(4, '0')}`;
      if (!taken.has(tfin)) {
        taken.add(tfin);
        return tfin;
      }
    }
    throw new ImportError(
      { input: 'data/assets' },
      `has no free TFIN for ${cls}-${ledger}-${year}`,
      'fewer than 10,000 records per class, ledger and year',
    );
  };
}

/** A new record's file text (a JSON copy: shared objects must not become YAML aliases). */
export function renderRecord(value: unknown): string {
  const doc = parseDocument('{}');
  doc.contents = nodeFor(doc, JSON.parse(JSON.stringify(value))) as typeof doc.contents;
  return doc.toString({ lineWidth: 0 });
}
