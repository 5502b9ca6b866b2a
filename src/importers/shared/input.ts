// Reading an importer's input: a local file or a URL fetched with a conditional GET and a
// timeout. Either way the bytes come with what provenance needs (name, date, SHA-256). Inputs
// are read in chunks up to a size cap (MAX_INPUT_BYTES): a runaway file or answer is refused
// once the cap is passed, never held in memory whole.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { ImportError } from './errors.ts';

export interface SourceInput {
  /** The file path or the URL, as given. */
  name: string;
  kind: 'file' | 'url';
  bytes: Buffer;
  sha256: string;
  /** YYYY-MM-DD: the date in the file's name (`2026-08-17-casps.csv`), else HTTP Last-Modified, else null. */
  file_date: string | null;
  /** The HTTP Last-Modified header, as sent (URLs only). */
  last_modified: string | null;
  etag: string | null;
}

export interface PreviousFetch {
  etag?: string | null;
  last_modified?: string | null;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The largest input an importer reads: the sources' files are at most a few MB (ESMA's
 * registers well under 1 MB, DefiLlama's stablecoin answer a few MB), so 32 MiB leaves room
 * for growth while keeping an import's memory bounded. `--max-input-mb` raises it.
 */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;

const tooLarge = (name: string, maxBytes: number, seen: string) =>
  new ImportError(
    { input: name },
    `is larger than the ${maxBytes} bytes an import reads (${seen})`,
    `a source file under ${Math.floor(maxBytes / 1024 / 1024)} MiB; if the source really grew, run again with --max-input-mb set above its size`,
  );

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A date written at the start of a file name (`2026-08-17-casps.csv`), as captured copies are named. */
export function dateInName(name: string): string | null {
  return /^(\d{4}-\d{2}-\d{2})[-_.]/.exec(path.basename(name))?.[1] ?? null;
}

export function readFileInput(file: string, maxBytes = MAX_INPUT_BYTES): SourceInput {
  let bytes: Buffer;
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a file');
    if (stat.size > maxBytes) throw tooLarge(file, maxBytes, `${stat.size} bytes`);
    // Read by chunks to the cap, not by the size stat gave: the file may still be growing.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw tooLarge(file, maxBytes, 'it grew while being read');
    }
    bytes = Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(
      { input: file },
      `cannot be read (${(error as Error).message})`,
      'a readable file',
    );
  } finally {
    if (fd !== null) closeSync(fd);
  }
  return {
    name: file,
    kind: 'file',
    bytes,
    sha256: sha256(bytes),
    file_date: dateInName(file),
    last_modified: null,
    etag: null,
  };
}

function httpDate(header: string | null): string | null {
  if (!header) return null;
  const time = Date.parse(header);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

/**
 * GET with a deadline. With `previous` validators the request is conditional: a 304 answers
 * `null` (the source has not changed since the last import, nothing to do).
 */
export async function fetchInput(
  url: string,
  options: { timeoutMs?: number; previous?: PreviousFetch; maxBytes?: number } = {},
): Promise<SourceInput | null> {
  const headers: Record<string, string> = { accept: '*/*' };
  if (options.previous?.etag) headers['if-none-match'] = options.previous.etag;
  if (options.previous?.last_modified)
    headers['if-modified-since'] = options.previous.last_modified;
  let response: Response;
  try {
    response = await fetch(url, {
      headers,
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`
        : (error as Error).message;
    throw new ImportError({ input: url }, `could not be fetched (${reason})`, 'a reachable URL');
  }
  if (response.status === 304) return null;
  if (!response.ok)
    throw new ImportError(
      { input: url },
      `answered HTTP ${response.status}`,
      'HTTP 200 with the source file',
    );
  const bytes = await cappedBody(url, response, options.maxBytes ?? MAX_INPUT_BYTES);
  const lastModified = response.headers.get('last-modified');
  return {
    name: url,
    kind: 'url',
    bytes,
    sha256: sha256(bytes),
    file_date: httpDate(lastModified) ?? dateInName(new URL(url).pathname),
    last_modified: lastModified,
    etag: response.headers.get('etag'),
  };
}

/** The body, read as it streams in and abandoned as soon as it passes the cap. */
async function cappedBody(url: string, response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(url, maxBytes, `Content-Length ${declared}`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    // Leaving the loop by a throw cancels the stream (the rest is never downloaded).
    if (response.body)
      for await (const chunk of response.body) {
        total += chunk.byteLength;
        if (total > maxBytes) throw tooLarge(url, maxBytes, 'more than that arrived');
        chunks.push(chunk);
      }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(
      { input: url },
      `was cut off while downloading (${(error as Error).message})`,
      'a complete answer',
    );
  }
  return Buffer.concat(chunks, total);
}

/**
 * Strict UTF-8 text of an input (a BOM is dropped). Any other encoding is refused rather than
 * read as mojibake: register names carry accents, and a wrong one must not reach the data.
 */
export function decodeUtf8(input: Pick<SourceInput, 'name' | 'bytes'>): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(input.bytes);
  } catch {
    const offset = firstInvalidUtf8(input.bytes);
    const row = input.bytes.subarray(0, offset).toString('latin1').split('\n').length;
    throw new ImportError(
      { input: input.name, row },
      `is not valid UTF-8 (byte 0x${input.bytes[offset]?.toString(16).padStart(2, '0')} at offset ${offset})`,
      'UTF-8 text, as the source publishes it (re-download the file rather than re-saving it)',
    );
  }
}

/** Offset of the first byte that does not begin or continue a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length =
      b < 0x80
        ? 1
        : b >= 0xc2 && b < 0xe0
          ? 2
          : b >= 0xe0 && b < 0xf0
            ? 3
            : b >= 0xf0 && b < 0xf5
              ? 4
              : 0;
    if (length === 0) return i;
    for (let k = 1; k < length; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += length;
  }
  return i;
}
