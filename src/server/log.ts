// Structured JSON logs (pino). Credentials are redacted wherever they could appear.
import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';
import { createLogWriter, type LogWriterStats } from './log-writer.ts';

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
  /** The problem code of an error answer (/docs/errors), for alerts and searches. */
  code?: string | undefined;
}

/**
 * One line per request, in the same JSON shape and destination as pino's lines. The line has a
 * fixed shape built from fields the pipeline controls (path without query, never a header), so it
 * is written directly: pino's generic per-call serialisation cost about a quarter of the hot
 * path's throughput. Every variable string is escaped with JSON.stringify.
 *
 * Both kinds of line go through one batched writer (`log-writer.ts`), so the output keeps
 * their order.
 */
export type AccessLog = (entry: AccessEntry) => void;

export interface Loggers {
  /** Everything else: credentials redacted wherever they could appear. */
  log: Logger;
  access: AccessLog;
  /** Writes every pending line (waiting at most ~2 s for a stalled destination), then calls `done`. */
  flush(done: () => void): void;
  /** Lines written and dropped, for /metrics. */
  stats(): LogWriterStats;
}

/**
 * The destination (stdout or LOG_DESTINATION) is a bounded asynchronous queue of batches of about
 * 128 KB (`log-writer.ts`): a stalled reader or a full volume drops and counts lines instead of
 * blocking or killing the service. Each line is encoded into the batch as it comes: one file write
 * per line, or per 8 KB, cost 3 % of the lookup path's time in writes alone, and keeping the lines
 * as strings to join per batch cost 5 % of the server's CPU under load (perf; the joined strings
 * had gone cold; bench/results/2026-11-23-bench-noise.md).
 */
export function createLoggers(
  config: Pick<Config, 'LOG_LEVEL' | 'LOG_DESTINATION' | 'LOG_BUFFER_BYTES'>,
): Loggers {
  const writer = createLogWriter(config.LOG_DESTINATION, config.LOG_BUFFER_BYTES);
  const destination = {
    write: (line: string) => (writer.write(line), true),
    /** pino's `logger.flush(cb)` calls this. */
    flush: (done: () => void = () => undefined) => writer.flush(done),
  };
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
  // The JSON form of the short strings that recur line after line (paths, addresses, key
  // prefixes), made once: bounded, emptied when full.
  const quotedForms = new Map<string, string>();
  const quoted = (text: string): string => {
    if (text.length > 128) return JSON.stringify(text);
    let q = quotedForms.get(text);
    if (q === undefined) {
      if (quotedForms.size >= 2048) quotedForms.clear();
      quotedForms.set(text, (q = JSON.stringify(text)));
    }
    return q;
  };
  // An address (the socket's or one proxy-addr accepted) needs no escaping; anything else is quoted.
  const ADDRESS = /^[0-9A-Fa-f:.]{1,45}$/;
  const quotedAddress = (ip: string): string => (ADDRESS.test(ip) ? `"${ip}"` : quoted(ip));
  // One ISO timestamp per millisecond, not per line.
  let lastMs = 0;
  let lastIso = '';
  const access: AccessLog = log.isLevelEnabled('info')
    ? (e) => {
        const now = Date.now();
        if (now !== lastMs) lastIso = new Date((lastMs = now)).toISOString();
        // reqId is a UUID and method a token the HTTP parser accepted: neither needs escaping.
        destination.write(
          `${prefix}${lastIso}${service}${e.reqId}","method":"${e.method ?? ''}","path":${quoted(e.path)},"status":${e.status},"ms":${e.ms},"ip":${quotedAddress(e.ip)}${e.keyPrefix ? `,"key_prefix":${quoted(e.keyPrefix)}` : ''}${e.code ? `,"code":"${e.code}"` : ''},"aborted":${e.aborted},"msg":"request"}\n`,
        );
      }
    : () => undefined;
  return {
    log,
    access,
    flush: (done) => writer.flush(done),
    stats: () => writer.stats(),
  };
}
