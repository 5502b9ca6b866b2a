// Our node:http server: limits and timeouts set deliberately, client errors answered as problem
// details, and a graceful shutdown that lets accepted requests finish.
import { STATUS_CODES, createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { resolvedRelease } from '../dataset/release-dirs.ts';
import { pathToFileURL } from 'node:url';
import type { Loggers } from './log.ts';
import {
  PROBLEM_CONTENT_TYPE,
  PROBLEMS,
  REFUSALS,
  refusalDetail,
  refusalHeaders,
  type RefusalName,
  type RefusalVars,
} from '../domain/errors.ts';
import { instanceFor, problemJson } from '../representation/representation.ts';
import type { Config } from '../config.ts';
import { createPipeline, type AstroHandler } from './pipeline.ts';
import { loadPrebuilt } from '../representation/prebuilt.ts';
import { startRuntime } from './runtime.ts';
import { loadStaticFiles } from './static-files.ts';
import { limitConnections, sendTimeoutArmer } from './connections.ts';
import { startChargeReader, type ChargeReader } from './edge-charges.ts';
import { versionProblem } from './http-conformance.ts';
import { verifyArtifacts } from '../dataset/integrity.ts';
import { registerServerMetrics } from './server-metrics.ts';
import { registerOperatorMetrics } from './operator-metrics.ts';
import { withEdgeAuth } from './edge-auth.ts';
import { releaseName } from './signed-downloads.ts';
import { generatedKeyFile, loadSigningKey } from '../representation/signing-key.ts';
import { responseSigner } from '../representation/response-signer.ts';

export interface RunningApp {
  server: Server;
  port: number;
  /** Stop accepting, let in-flight requests finish (up to SHUTDOWN_GRACE_MS), then close. */
  shutdown(): Promise<void>;
}

/**
 * A raw HTTP/1.1 problem response for errors Node detects before our handler runs: the named
 * refusal of the catalogue (wording and fixed headers), with `status` when it is not the code's.
 */
function rawProblem<N extends RefusalName>(
  name: N,
  vars: RefusalVars<N>,
  status: number = PROBLEMS[REFUSALS[name].code].status,
): string {
  const code = REFUSALS[name].code;
  const body = problemJson(code, refusalDetail(name, vars), undefined);
  const fixed = refusalHeaders(name);
  let extraHeaders = '';
  for (let i = 0; i < fixed.length; i += 2) extraHeaders += `${fixed[i]}: ${fixed[i + 1]}\r\n`;
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n${extraHeaders}Connection: close\r\n\r\n${body}`
  );
}

/** True when a response of ours has begun on the socket: an error now must not add a second one. */
function answering(socket: Socket): boolean {
  const res = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return res?.headersSent === true;
}

/** The release this process runs, resolved and verified, and what is loaded from it. */
async function openRelease(config: Config) {
  // The release this process runs: links resolved once (scripts/build.ts switches them), so a
  // build or a switch while it runs never mixes two releases in one instance. Astro's
  // endpoints read the same paths from the environment.
  const distLink = config.DIST_DIR;
  const dist = resolvedRelease(config.DIST_DIR);
  const datasetFile = resolvedRelease(config.TAI_DATASET);
  process.env['DIST_DIR'] = dist;
  process.env['TAI_DATASET'] = datasetFile;
  // A damaged build does not start (exit 1 with the damaged files named): see integrity.ts.
  verifyArtifacts(dist, datasetFile);
  const prebuilt = loadPrebuilt(dist, datasetFile);
  const staticFiles = loadStaticFiles(path.join(dist, 'client'));
  const entry = (await import(pathToFileURL(path.join(dist, 'server', 'entry.mjs')).href)) as {
    handler: AstroHandler;
  };
  return {
    config: { ...config, DIST_DIR: dist, TAI_DATASET: datasetFile },
    distLink,
    dist,
    prebuilt,
    staticFiles,
    astro: entry.handler,
  };
}

/** Says at the start whether /v1 answers are signed, and with which key. */
function logSigning(
  signer: ReturnType<typeof responseSigner> | null | undefined,
  config: Config,
  log: Loggers['log'],
): void {
  if (signer && !config.SIGNING_KEY_FILE)
    log.info(
      { kid: signer.kid, file: generatedKeyFile(config.DATA_DIR) },
      'signing /v1 answers (RFC 9421, Ed25519) with the key generated into DATA_DIR (SIGNING_KEY_MODE=generate, as npm start sets); production names its key in SIGNING_KEY_FILE',
    );
  else if (signer) log.info({ kid: signer.kid }, 'signing /v1 answers (RFC 9421, Ed25519)');
  else log.warn('unsigned: no SIGNING_KEY_FILE, /v1 answers carry no signatures');
}

/** The server's limits and timeouts, set deliberately. */
function serverOptions(config: Config) {
  return {
    maxHeaderSize: config.MAX_HEADER_BYTES,
    headersTimeout: config.HEADERS_TIMEOUT_MS,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    // How often Node checks the two timeouts above; the default (30 s) would let slow clients linger.
    connectionsCheckingInterval: 1000,
    requireHostHeader: false,
    // A request without Content-Length or Transfer-Encoding (every GET and HEAD we answer) has
    // no body: Node skips its stream's end and close events (the body step reads the others).
    optimizeEmptyRequests: true,
  };
}

/** Answers what Node refuses before our handler runs (tunnels, malformed requests) as problems. */
function answerClientErrors(server: Server, config: Config): void {
  // CONNECT asks for a tunnel: Node hands it to a 'connect' listener or drops the socket silently.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end(rawProblem('not_a_proxy', {}));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A response already begun (e.g. a bad body after the request was answered): a second,
    // unsolicited response would desynchronise the client; close instead.
    if (!socket.writable || err.code === 'ECONNRESET' || answering(socket)) {
      socket.destroy();
      return;
    }
    if (err.code === 'HPE_INVALID_VERSION') {
      const body = versionProblem(
        'This HTTP version is not supported; use HTTP/1.1.',
        instanceFor(undefined),
      );
      socket.end(
        `HTTP/1.1 505 HTTP Version Not Supported\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      socket.end(rawProblem('headers_too_large', { limit: config.MAX_HEADER_BYTES }));
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end(rawProblem('request_timeout', {}, 408));
    } else {
      socket.end(rawProblem('not_http', {}));
    }
  });
}

/** Listens on the configured address; the port bound (the configured one unless it was 0). */
async function listen(server: Server, config: Config): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : config.PORT;
}

/**
 * The graceful shutdown: stop accepting, let in-flight requests finish within the grace, then
 * take the edge's last charges and write the pending metering. Called twice, it returns the
 * first call's promise.
 */
function shutdownOf(
  server: Server,
  config: Config,
  log: Loggers['log'],
  stops: {
    drain(): void;
    charges(): ChargeReader | undefined;
    runtime(deadline: number): Promise<void>;
  },
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= new Promise<void>((resolve) => {
      stops.drain();
      // One deadline for the whole shutdown: requests, then metering (written, or journaled
      // locally when the database cannot take it by then), so the process exits within the grace.
      const deadline = Date.now() + config.SHUTDOWN_GRACE_MS;
      log.info(
        { grace_ms: config.SHUTDOWN_GRACE_MS },
        'shutting down: finishing in-flight requests',
      );
      const force = setTimeout(() => {
        log.warn('grace period over: closing remaining connections');
        server.closeAllConnections();
      }, config.SHUTDOWN_GRACE_MS);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        // Everything answered (the edge's last charges taken first): write the pending usage and
        // latency before exiting (at least a second for it even when the requests used the
        // whole grace).
        void (stops.charges()?.close() ?? Promise.resolve())
          .then(() => stops.runtime(Math.max(deadline, Date.now() + 1000)))
          .then(() => {
            log.info('stopped');
            resolve();
          });
      });
      // Idle keep-alive sockets would hold close() open; busy ones close after their response.
      server.closeIdleConnections();
    }));
}

export async function startApp(startConfig: Config, loggers: Loggers): Promise<RunningApp> {
  const { log } = loggers;
  // A bad key stops the start (the message names the variable); none configured runs unsigned.
  const signingKey = loadSigningKey(startConfig);
  const { config, distLink, dist, prebuilt, staticFiles, astro } = await openRelease(startConfig);

  const runtime = await startRuntime(config, prebuilt.core, log);
  const { dataset_version: version, generated_at: builtAt } = prebuilt.core;
  const signer = signingKey && responseSigner(signingKey, { version, builtAt });
  logSigning(signer, config, log);

  let draining = false;
  // The edge reuses a decision, and a signed URL is issued, only when the requests it answers
  // are charged here: the reader of this instance's charge log starts once the port (its name)
  // is known.
  let charges: ChargeReader | undefined;
  // With EDGE_AUTH_TOKEN, the edge's auth_request endpoint sits in front (edge-auth.ts).
  const pipeline = createPipeline({
    config,
    log,
    access: loggers.access,
    prebuilt,
    staticFiles,
    astro,
    runtime,
    draining: () => draining,
    armSendTimeout: sendTimeoutArmer(config.SEND_TIMEOUT_MS),
    signer,
    jwks: signingKey?.jwks ?? { keys: [] },
    // Downloads are charged through this instance's charge log: offered only with one.
    downloads: {
      token: config.EDGE_AUTH_TOKEN,
      seconds: config.EDGE_SIGNED_URL_SECONDS,
      release: releaseName(dist),
      chargeLog: () => charges?.name,
    },
  });
  const handle = withEdgeAuth(
    pipeline,
    config.EDGE_AUTH_TOKEN,
    dist,
    { seconds: config.EDGE_AUTH_CACHE_SECONDS, reader: () => charges },
    distLink,
  );

  const server = createServer(serverOptions(config), handle);
  const connectionStats = limitConnections(server, {
    maxConnections: config.MAX_CONNECTIONS,
    maxPerAddress: config.MAX_CONNECTIONS_PER_ADDRESS,
    sendTimeoutMs: config.SEND_TIMEOUT_MS,
    refusal: () => rawProblem('too_many_connections', {}),
  });
  registerServerMetrics(runtime.metrics.registry, connectionStats, loggers.stats);
  registerOperatorMetrics(runtime.metrics.registry);
  answerClientErrors(server, config);

  const port = await listen(server, config);
  if (config.EDGE_AUTH_TOKEN && config.EDGE_CHARGE_DIR)
    charges = startChargeReader(config.EDGE_CHARGE_DIR, String(port), {
      limits: runtime.limits,
      recorder: runtime.recorder,
      metrics: runtime.metrics,
      access: loggers.access,
      log,
    });
  log.info(
    {
      host: config.HOST,
      port,
      dataset: prebuilt.core.dataset_version,
      assets: prebuilt.profileCount,
    },
    'listening',
  );

  const shutdown = shutdownOf(server, config, log, {
    drain: () => {
      draining = true;
    },
    charges: () => charges,
    runtime: (deadline) => runtime.stop(deadline),
  });
  return { server, port, shutdown };
}
