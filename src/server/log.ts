// Structured JSON logs (pino). Credentials are redacted wherever they could appear.
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'key',
  'apiKey',
];

export interface AccessEntry {
  reqId: string;
  method: string | undefined;
  path: string;
  status: number;
  ms: number;
  ip: string;
  /** The key's public display prefix (or DEMO_KEY), never the key. */
  keyPrefix: string | undefined;
  aborted: boolean;
}

/**
 * One line per request, in the same JSON shape and destination as pino's lines. The line has a
 * fixed shape built from fields the pipeline controls (path without query, never a header), so it
 * is written directly: pino's generic per-call serialisation cost about a quarter of the hot
 * path's throughput. Every variable string is escaped with JSON.stringify.
 *
 * Lines are encoded straight into a 64 KB buffer, which is written to stdout when full, every
 * second and at exit. Handing sonic-boom one string per line made it measure its whole pending
 * buffer on every write (Buffer.byteLength of a growing string): several µs a line. Batches of
 * strings still cost ~4 % of the lookup path's CPU (perf: flattening and measuring 64 KB ropes,
 * then encoding them again to write); encoding each short line once into bytes does not. A batch
 * waits at most a second; an access line may therefore follow a later application line in the
 * output (both carry a time).
 */
export type AccessLog = (entry: AccessEntry) => void;

export interface Loggers {
  /** Everything else: credentials redacted wherever they could appear. */
  log: Logger;
  access: AccessLog;
  /** Writes every pending line, then calls `done` (before the process exits). */
  flush(done: () => void): void;
}

const ACCESS_BATCH_BYTES = 65_536;

export function createLoggers(config: Pick<Config, 'LOG_LEVEL'>): Loggers {
  const destination = bufferedStdout();
  const common = {
    level: config.LOG_LEVEL,
    base: { service: 'tai-api', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const log = pino(
    { ...common, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    destination,
  );
  const prefix = `{"level":"info","time":"`;
  const service = `","service":"tai-api","pid":${process.pid},"req_id":"`;
  // One ISO timestamp per millisecond, not per line.
  let lastMs = 0;
  let lastIso = '';
  // Whole batches, in bytes, to the same stdout; each write is synchronous and complete, so a
  // batch never interleaves with pino's lines.
  // (sonic-boom's buffer mode takes Buffers; its types only declare the string overload.)
  const accessOut = pino.destination({ fd: 1, sync: true, contentMode: 'buffer' }) as unknown as {
    write(bytes: Buffer): boolean;
  };
  let batch = Buffer.allocUnsafe(ACCESS_BATCH_BYTES);
  let used = 0;
  const drain = () => {
    if (used === 0) return;
    // The written buffer is handed over, not reused: a write retried later still has its bytes.
    accessOut.write(batch.subarray(0, used));
    batch = Buffer.allocUnsafe(ACCESS_BATCH_BYTES);
    used = 0;
  };
  const append = (line: string) => {
    // A UTF-8 byte per UTF-16 unit is at most 3: make sure the whole line fits before encoding.
    if (used + line.length * 3 > ACCESS_BATCH_BYTES) {
      drain();
      if (line.length * 3 > ACCESS_BATCH_BYTES) return void accessOut.write(Buffer.from(line));
    }
    used += batch.write(line, used);
  };
  setInterval(drain, 1000).unref();
  const access: AccessLog = log.isLevelEnabled('info')
    ? (e) => {
        const now = Date.now();
        if (now !== lastMs) lastIso = new Date((lastMs = now)).toISOString();
        // reqId is a UUID and method a token the HTTP parser accepted: neither needs escaping.
        append(
          `${prefix}${lastIso}${service}${e.reqId}","method":"${e.method ?? ''}","path":${JSON.stringify(e.path)},"status":${e.status},"ms":${e.ms},"ip":${JSON.stringify(e.ip)}${e.keyPrefix ? `,"key_prefix":${JSON.stringify(e.keyPrefix)}` : ''},"aborted":${e.aborted},"msg":"request"}\n`,
        );
      }
    : () => undefined;
  return {
    log,
    access,
    flush(done) {
      drain();
      log.flush(() => done());
    },
  };
}

/**
 * stdout in batches of at least 64 KB, written synchronously from the main thread (one write per
 * ~250 access lines: with 8 KB batches the writes alone took 3 % of the hot path's time;
 * asynchronous writes run on libuv's threadpool, which on a 2-core machine competes with the
 * request path), flushed every second and at exit.
 */
function bufferedStdout() {
  const destination = pino.destination({ sync: true, minLength: 65_536, maxWrite: 1 << 20 });
  setInterval(() => destination.flush(), 1000).unref();
  return destination;
}
