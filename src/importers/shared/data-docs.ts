// The data files an importer reads and edits, as yaml Documents. Edits go through the Document
// API (getIn, setIn, items) so that comments, key order, quoting and fields the importer does not
// know all survive; rendering is tuned so that an unedited file comes out byte for byte as it
// went in (tested on every record), which keeps the diff a reviewer reads to the real change.
// Used by the onchain, stablecoins and gleif importers.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  isMap,
  isScalar,
  parseDocument,
  visit,
  type Document,
  type Node,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { ImportError } from './errors.ts';

export interface DataDoc {
  /** Project-relative path with forward slashes, e.g. `data/assets/TFIN-….yaml`. */
  path: string;
  /** The text as read: rendering follows its spacing of flow collections. */
  text: string;
  doc: Document;
}

/** Every `*.yaml` file of a data directory, sorted by name; none when the directory is missing. */
export function readDataDocs(root: string, dir: string): DataDoc[] {
  let names: string[];
  try {
    names = readdirSync(path.join(root, dir)).filter((n) => n.endsWith('.yaml'));
  } catch {
    return [];
  }
  return names.sort().map((name) => {
    const rel = `${dir}/${name}`;
    const text = readFileSync(path.join(root, rel), 'utf8');
    const doc = parseDocument(text);
    const error = doc.errors[0];
    // An importer edits only files that parse: a broken file is data:check's to explain.
    if (error)
      throw new ImportError(
        { input: rel, row: error.linePos?.[0].line },
        `is not valid YAML (${error.message.split('\n')[0]})`,
        'a data file that passes npm run data:check; fix it first',
      );
    return { path: rel, text, doc };
  });
}

/** A plain value read from a document (`undefined` when the path is missing). */
export function valueAt(doc: Document, at: readonly (string | number)[]): unknown {
  const node = doc.getIn(at, true);
  return isScalar(node) ? node.value : (node as Node | undefined)?.toJSON();
}

const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/;

/**
 * A node for a new value, written the way editors write the data: dates and times double-quoted
 * (so no YAML 1.1 reader takes them for timestamps), everything else as yaml chooses.
 */
export function nodeFor(doc: Document, value: unknown): Node {
  const node = doc.createNode(value) as Node;
  visit(node, {
    Scalar(_, scalar) {
      if (typeof scalar.value === 'string' && DATE.test(scalar.value)) scalar.type = 'QUOTE_DOUBLE';
    },
  });
  return node;
}

/**
 * The file's text. Long lines are never folded (lineWidth 0). Editors write flow collections both
 * as `{ a: b }` and `{a: b}`, and yaml has one padding option for the whole document, so each
 * collection read from the file keeps its own spacing; new ones get prettier's YAML style
 * (`{ a: b }`, `[a, b]`).
 */
export function renderDoc({ text, doc }: Pick<DataDoc, 'text' | 'doc'>): string {
  const keepPadding = (_: unknown, node: YAMLMap | YAMLSeq) => {
    if (!node.flow) return;
    const start = node.range?.[0];
    const padded = start === undefined ? isMap(node) : text[start + 1] === ' ';
    const toString = node.toString.bind(node);
    node.toString = (ctx, ...rest) =>
      toString(ctx && { ...ctx, flowCollectionPadding: padded ? ' ' : '' }, ...rest);
  };
  visit(doc, { Map: keepPadding, Seq: keepPadding });
  return doc.toString({ lineWidth: 0 });
}
