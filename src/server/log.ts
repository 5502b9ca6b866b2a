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
 */
export type AccessLog = (entry: AccessEntry) => void;

export interface Loggers {
  /** Everything else: credentials redacted wherever they could appear. */
  log: Logger;
  access: AccessLog;
}

export function createLoggers(
  config: Pick<Config, 'LOG_LEVEL'>,
  destination: pino.DestinationStream = bufferedStdout(),
): Loggers {
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
  const service = `","service":"tai-api","pid":${process.pid},"req_id":`;
  const access: AccessLog = log.isLevelEnabled('info')
    ? (e) => {
        destination.write(
          `${prefix}${new Date().toISOString()}${service}${JSON.stringify(e.reqId)},"method":${JSON.stringify(e.method ?? '')},"path":${JSON.stringify(e.path)},"status":${e.status},"ms":${e.ms},"ip":${JSON.stringify(e.ip)}${e.keyPrefix ? `,"key_prefix":${JSON.stringify(e.keyPrefix)}` : ''},"aborted":${e.aborted},"msg":"request"}\n`,
        );
      }
    : () => undefined;
  return { log, access };
}

/**
 * stdout in batches of at least 8 KB, written synchronously from the main thread (one write per
 * ~40 access lines; asynchronous writes run on libuv's threadpool, which on a 2-core machine
 * competes with the request path), flushed every second and at exit.
 */
function bufferedStdout() {
  const destination = pino.destination({ sync: true, minLength: 8192 });
  setInterval(() => destination.flush(), 1000).unref();
  return destination;
}
