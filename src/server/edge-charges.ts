// The edge's charges (docs/production.md "The edge's authorization cache"): nginx answers a dataset request
// from a cached decision without asking us, and ships one syslog line for each such request over
// UDP on loopback (deploy/nginx, `access_log syslog:… tai_charge`). Each line is charged here as
// the request would have been had we answered it: one unit of the key's quota, its usage (by
// status class: only 2xx billed), latency, metrics and one access line. Requests the edge asked us
// about are counted by the pipeline itself and never shipped, so every request is counted once.
//
// The line names the key by its id, tier and public prefix (never the key), and carries the edge
// token: a local process without it cannot charge a key (it could never grant one anything).
// Every instance binds the same port (SO_REUSEPORT): whichever receives a line charges it, which
// is one count with shared (Redis) quotas and the database's usage.
import dgram from 'node:dgram';
import type { Logger } from 'pino';
import type { Principal } from '../access/authenticator.ts';
import { PRERENDERED_VIEWS } from '../api/operations.ts';
import { addressKey } from '../lib/client-address.ts';
import { safeEqual } from '../lib/safe-equal.ts';
import type { AccessLog } from './log.ts';
import { edgeCounts } from './edge-counts.ts';
import type { Runtime } from './runtime.ts';
import { recordServed } from './steps/on-close.ts';

/** The first word of the edge's line (deploy/nginx/tai-edge.conf.template, `log_format tai_charge`). */
export const CHARGE_TAG = 'tai-edge-charge';
const VIEWS = new Set<string>(PRERENDERED_VIEWS);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A syslog datagram nginx sends is one line of a few hundred bytes: anything longer is not one. */
const MAX_LINE = 2048;

export interface Charge {
  principal: Extract<Principal, { kind: 'key' }>;
  status: number;
  method: string;
  path: string;
  requestId: string;
  ip: string;
  ms: number;
}

/**
 * One syslog datagram (`<PRI>timestamp tag: message`) to a charge, or null when it is not a
 * well-formed line of our edge with `token`.
 */
export function parseCharge(datagram: string, token: string): Charge | null {
  if (datagram.length > MAX_LINE) return null;
  const at = datagram.indexOf(`${CHARGE_TAG} `);
  if (at < 0) return null;
  const f = datagram.slice(at).trimEnd().split(' ');
  if (f.length !== 12 || f[1] !== '1' || !safeEqual(f[2], token)) return null;
  const [, , , id, tier, prefix, status, method, path, requestId, ip, seconds] = f as string[];
  const ms = Number(seconds) * 1000;
  if (
    !UUID.test(id!) ||
    !/^[a-z]{1,32}$/.test(tier!) ||
    !/^tai_(live|test)_[0-9A-Za-z]{6}$/.test(prefix!) ||
    !/^[1-5]\d\d$/.test(status!) ||
    (method !== 'GET' && method !== 'HEAD') ||
    !VIEWS.has(path!) ||
    !UUID.test(requestId!) ||
    addressKey(ip!) === null ||
    !Number.isFinite(ms) ||
    ms < 0
  )
    return null;
  return {
    principal: { kind: 'key', id: id!, tier: tier!, owner: '', displayPrefix: prefix! },
    status: Number(status),
    method: method!,
    path: path!,
    requestId: requestId!,
    ip: ip!,
    ms,
  };
}

export interface ChargeDeps {
  token: string;
  limits: Runtime['limits'];
  recorder: Pick<Runtime['recorder'], 'record'>;
  metrics: Pick<Runtime['metrics'], 'observe'>;
  access: AccessLog;
  log: Logger;
}

/** Charges one request the edge answered (never throws: a failed quota count is logged). */
export function charge(c: Charge, deps: ChargeDeps): void {
  const counted = deps.limits.consume(c.principal, addressKey(c.ip) ?? c.ip);
  if (counted instanceof Promise)
    counted.catch((err: unknown) =>
      deps.log.warn({ err: (err as Error).message }, 'edge charge: quota not counted'),
    );
  // Recorded as the pipeline records a request it served (on-close.ts).
  recordServed(
    { runtime: deps, access: deps.access },
    { operation: c.path, billedTo: c.principal.id, ms: c.ms },
    {
      reqId: c.requestId,
      method: c.method,
      path: c.path,
      status: c.status,
      ms: c.ms,
      ip: c.ip,
      keyPrefix: c.principal.displayPrefix,
      aborted: false,
    },
  );
}

export interface ChargeReceiver {
  port: number;
  close(): Promise<void>;
}

/** Listens on `host:port` (UDP) for the edge's lines; resolves once bound. */
export async function startChargeReceiver(
  host: string,
  port: number,
  deps: ChargeDeps,
): Promise<ChargeReceiver> {
  // A large receive buffer: a burst the event loop has not read yet waits in the kernel
  // instead of being dropped (loopback UDP loses a datagram only when this buffer is full).
  const socket = dgram.createSocket({
    type: host.includes(':') ? 'udp6' : 'udp4',
    reuseAddr: true,
    reusePort: true,
    recvBufferSize: 8 * 1024 * 1024,
  });
  socket.on('message', (msg) => {
    const c = parseCharge(msg.toString('latin1'), deps.token);
    // Counted in /metrics (tai_edge_charges_total): rejected lines are not the edge's.
    if (c === null) {
      edgeCounts.rejected++;
      return;
    }
    edgeCounts.charged++;
    charge(c, deps);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  socket.on('error', (err) => deps.log.error({ err: err.message }, 'edge charge receiver'));
  return {
    port: socket.address().port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
