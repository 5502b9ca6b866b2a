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

export interface Loggers {
  /** Everything but access lines: credentials redacted wherever they could appear. */
  log: Logger;
  /**
   * One line per request, built by the pipeline from fields it controls (path without query, the
   * key's public display prefix, never a header): no redaction pass, which cost a quarter of the
   * throughput on the hot path. Same destination and format as `log`.
   */
  access: Logger;
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
  return {
    log: pino({ ...common, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination),
    access: pino(common, destination),
  };
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
