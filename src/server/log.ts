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
 * Both kinds of line go through one batched stdout writer (`stdoutBatches`), so the output keeps
 * their order.
 */
export type AccessLog = (entry: AccessEntry) => void;

export interface Loggers {
  /** Everything else: credentials redacted wherever they could appear. */
  log: Logger;
  access: AccessLog;
  /** Writes every pending line, then calls `done` (before the process exits). */
  flush(done: () => void): void;
}

const BATCH_BYTES = 65_536;

export function createLoggers(config: Pick<Config, 'LOG_LEVEL'>): Loggers {
  const destination = stdoutBatches();
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
  const access: AccessLog = log.isLevelEnabled('info')
    ? (e) => {
        const now = Date.now();
        if (now !== lastMs) lastIso = new Date((lastMs = now)).toISOString();
        // reqId is a UUID and method a token the HTTP parser accepted: neither needs escaping.
        destination.write(
          `${prefix}${lastIso}${service}${e.reqId}","method":"${e.method ?? ''}","path":${JSON.stringify(e.path)},"status":${e.status},"ms":${e.ms},"ip":${JSON.stringify(e.ip)}${e.keyPrefix ? `,"key_prefix":${JSON.stringify(e.keyPrefix)}` : ''},"aborted":${e.aborted},"msg":"request"}\n`,
        );
      }
    : () => undefined;
  return {
    log,
    access,
    flush: (done) => destination.flush(done),
  };
}

/**
 * stdout in batches: each line is encoded once, straight into a 64 KB buffer, which is written
 * synchronously from the main thread when full, every second and at exit (a crash included).
 * Measured on the lookup path:
 * - one write per line, or per 8 KB, cost 3 % of the hot path's time in writes alone;
 * - asynchronous writes run on libuv's threadpool, which on a 2-core machine competes with the
 *   request path;
 * - handing sonic-boom strings made it measure its pending string on every write
 *   (Buffer.byteLength of a growing rope: several µs a line), then encode it again to write
 *   (~4 % of the CPU); encoding each short line once into bytes does not.
 */
function stdoutBatches() {
  // sonic-boom does the writing (partial writes, EAGAIN on a non-blocking pipe); its buffer
  // mode takes Buffers, though its types only declare the string overload.
  const out = pino.destination({ fd: 1, sync: true, contentMode: 'buffer' }) as unknown as {
    write(bytes: Buffer): boolean;
  };
  let batch = Buffer.allocUnsafe(BATCH_BYTES);
  let used = 0;
  const drain = () => {
    if (used === 0) return;
    // The written buffer is handed over, not reused: a write retried later still has its bytes.
    out.write(batch.subarray(0, used));
    batch = Buffer.allocUnsafe(BATCH_BYTES);
    used = 0;
  };
  setInterval(drain, 1000).unref();
  process.on('exit', drain);
  return {
    write(line: string): boolean {
      // A UTF-8 byte per UTF-16 unit is at most 3: make sure the whole line fits before encoding.
      if (used + line.length * 3 > BATCH_BYTES) {
        drain();
        if (line.length * 3 > BATCH_BYTES) return out.write(Buffer.from(line));
      }
      used += batch.write(line, used);
      return true;
    },
    /** pino's `logger.flush(cb)` calls this. */
    flush(done: () => void = () => undefined): void {
      drain();
      done();
    },
  };
}
