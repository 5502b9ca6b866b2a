// The one reader of line-separated files (NDJSON, "<key>\t<JSON>" lines): the byte span of each
// non-empty line, without copying or decoding the buffer.

/** [start, end) of each non-empty '\n'-separated line of `bytes`; the last may lack its '\n'. */
export function* lineSpans(bytes: Buffer): Generator<[start: number, end: number]> {
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    if (end > start) yield [start, end];
    start = end + 1;
  }
}
