// Entry point: `npm start`. Reads the configuration, starts the server, shuts down on SIGTERM/SIGINT.
import { ConfigError, readConfig } from '../config.ts';
import { createLoggers } from './log.ts';
import { startApp } from './app.ts';

process.env['ASTRO_TELEMETRY_DISABLED'] = '1';

let config;
try {
  config = readConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78); // EX_CONFIG
  }
  throw err;
}
let loggers;
try {
  loggers = createLoggers(config); // LOG_DESTINATION is opened here
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(78);
}
const { log } = loggers;

try {
  const app = await startApp(config, loggers);
  const stop = (signal: string) => {
    log.info({ signal }, 'signal received');
    // The shutdown is bounded by SHUTDOWN_GRACE_MS (requests, then metering: written or
    // journaled locally); this guard only catches a bug, so a supervisor never waits forever.
    setTimeout(() => {
      log.error('shutdown overran the grace period; exiting');
      loggers.flush(() => process.exit(1));
    }, config.SHUTDOWN_GRACE_MS + 5000).unref();
    app.shutdown().then(
      // Exit only once every buffered log line is written.
      () => loggers.flush(() => process.exit(0)),
      (err: unknown) => {
        log.error({ err: (err as Error).message }, 'shutdown failed');
        loggers.flush(() => process.exit(1));
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // Parent test harnesses and process managers read this line to know the port.
  if (process.send) process.send({ type: 'listening', port: app.port });
} catch (err) {
  log.fatal({ err: err instanceof Error ? err.message : String(err) }, 'could not start');
  loggers.flush(() => process.exit(1));
}
