// A record's `sources` list as importers keep it: an importer adds its source once, refreshes its own
// entry when the input changed (new digest or URL), and leaves an editor's entry of the same id as
// it is. Every importer that cites itself in a record writes through this.
import { isMap, isSeq, YAMLMap, type Document } from 'yaml';
import type { Source } from '../../domain/common.ts';
import { nodeFor } from './data-docs.ts';

/** Adds `source` to the record's `sources` unless an entry has its id (an importer's own entry follows the input). */
export function putSourceIfAbsent(doc: Document, source: Source) {
  const list = doc.get('sources', true);
  if (!isSeq(list)) return;
  if (list.items.some((i) => isMap(i) && i.get('id') === source.id)) {
    // The importer's own entries follow the input (new commit, new digest); an editor's stay.
    const at = list.items.findIndex((i) => isMap(i) && i.get('id') === source.id);
    const current = (list.items[at] as YAMLMap).toJSON() as Source;
    // Unchanged input (same digest) leaves the entry as it is, access date included.
    if (
      current.provenance &&
      (current.provenance.sha256 !== source.provenance?.sha256 || current.url !== source.url)
    )
      list.items[at] = nodeFor(doc, source);
    return;
  }
  list.items.push(nodeFor(doc, source));
}
