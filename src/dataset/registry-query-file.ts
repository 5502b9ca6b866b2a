// The registry's query index as a file (issue #37): what `q=`, the list filters and
// `changed_since=` read instead of scanning the rows, made by the bodies pass from the registry
// index (src/api/registry-query.ts builds it) and loaded at start, so no instance builds it.
// Layout: a uint32 LE length, a JSON header (the strings, and for every typed array its type,
// offset and length), padding to 8 bytes, then the arrays' bytes, each at a multiple of 8. Loaded
// as views over one buffer: the postings cost their bytes, not an object per entry.
import { readFileSync, writeFileSync } from 'node:fs';

/** Sorted strings as one text and each one's start (string i is text[start[i], start[i+1])). */
export interface PackedStrings {
  text: string;
  start: Uint32Array;
}

/** The inverted index of one record list (src/api/text-index.ts reads and makes it). */
export interface TextIndexData {
  count: number;
  /** The fields, in the search's order, and their weights. */
  fields: string[];
  boosts: number[];
  /** Every word, folded and stemmed, sorted by UTF-16 code unit. */
  terms: PackedStrings;
  /** Term ids in the order the records first use them (the order MiniSearch's word tree is grown in). */
  insertion: Uint32Array;
  /** Postings of term t in field f: docs/freqs[postingStart[t·F+f], postingStart[t·F+f+1]). */
  postingStart: Uint32Array;
  docs: Uint32Array;
  freqs: Uint16Array;
  /** Distinct words of record d's field f (at d·F+f), and each field's running mean of them. */
  fieldLength: Uint16Array;
  avgFieldLength: Float64Array;
  /** Whole-field values (folded), sorted, with their records at docs[start[i], start[i+1]). */
  wholes: { values: PackedStrings; start: Uint32Array; docs: Uint32Array };
}

/** The records holding each value of one filter: values sorted, records ascending. */
export interface FilterPostings {
  values: string[];
  start: Uint32Array;
  docs: Uint32Array;
}

export interface RegistryQueryData {
  /** Rows indexed, and the TFINs of the first and last (checked against the index at load). */
  count: number;
  first: string | null;
  last: string | null;
  text: TextIndexData;
  filters: Record<string, FilterPostings>;
  /**
   * `last_changed`: the distinct dates sorted, each row's date (its index + 1; 0 without one),
   * and the rows with a date ordered by it (then by position), date i's rows from byDate[dateStart[i]].
   */
  changed: { dates: string[]; ofRow: Uint32Array; byDate: Uint32Array; dateStart: Uint32Array };
}

type Typed = Uint32Array | Uint16Array | Float64Array;
const TYPES = { Uint32Array, Uint16Array, Float64Array } as const;
type TypeName = keyof typeof TYPES;
interface ArrayRef {
  $array: TypeName;
  offset: number;
  length: number;
}

const pad8 = (n: number) => (n + 7) & ~7;

/** Writes `data` to `file` (the header, then each array 8-byte aligned). */
export function writeRegistryQueryFile(file: string, data: RegistryQueryData): void {
  const arrays: Typed[] = [];
  let offset = 0;
  const header = JSON.stringify(data, (_key, value: unknown) => {
    if (!ArrayBuffer.isView(value)) return value;
    const array = value as Typed;
    const ref: ArrayRef = {
      $array: array.constructor.name as TypeName,
      offset,
      length: array.length,
    };
    arrays.push(array);
    offset += pad8(array.byteLength);
    return ref;
  });
  const head = Buffer.from(header);
  const base = pad8(4 + head.length);
  const out = Buffer.alloc(base + offset);
  out.writeUInt32LE(head.length, 0);
  head.copy(out, 4);
  let at = base;
  for (const array of arrays) {
    Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(out, at);
    at += pad8(array.byteLength);
  }
  writeFileSync(file, out);
}

/** Reads a file written by writeRegistryQueryFile: the arrays are views over its bytes. */
export function readRegistryQueryFile(file: string): RegistryQueryData {
  const bytes = readFileSync(file);
  if (bytes.length < 4) throw new Error(`${file} is truncated: rebuild with \`npm run build\``);
  const length = bytes.readUInt32LE(0);
  const base = pad8(4 + length);
  if (base > bytes.length)
    throw new Error(`${file} is truncated or damaged: rebuild with \`npm run build\``);
  // Views need an aligned buffer: a file read on its own is one, else it is copied once.
  const body =
    bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(new Uint8Array(bytes).buffer.slice(0));
  const header = body.subarray(4, 4 + length).toString('utf8');
  return JSON.parse(header, (_key, value: unknown) => {
    if (!value || typeof value !== 'object' || !('$array' in value)) return value;
    const ref = value as ArrayRef;
    const Type = TYPES[ref.$array];
    const start = body.byteOffset + base + ref.offset;
    if (!Type || base + ref.offset + ref.length * Type.BYTES_PER_ELEMENT > body.length)
      throw new Error(`${file} is truncated or damaged: rebuild with \`npm run build\``);
    return new Type(body.buffer, start, ref.length);
  }) as RegistryQueryData;
}
