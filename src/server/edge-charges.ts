// The edge's charges (docs/production.md "The edge's charges"): nginx answers a dataset request from a
// cached decision without asking us, and appends one line for each such request to a file of
// the instance that made the decision (deploy/nginx, `access_log …/charges-$name.log
// tai_charge`). This instance tails its own file from a durable offset and charges each line as
// the request would have been had we answered it: one unit of the key's quota, its usage (by
// status class: only 2xx billed), latency, metrics and one access line. Requests the edge asked
// us about are counted by the pipeline itself and never written there, so every request is
// counted once.
//
// Why a file and not the UDP datagram of before: a datagram is dropped silently when the
// receiver's buffer is full (64 % of the edge's answers were never billed under an anonymous
// flood). A line in a file waits until it is read: a busy or restarting instance charges it
// late, never not at all, and the offset it saves after each batch carries over a restart. How
// late is measured (`lagMs`) and bounds the quota overshoot: while this reader is behind, the
// instance marks no decision reusable (edge-auth.ts), so the edge asks for every request.
//
// The line names the key by its id, tier and public prefix (never the key). Only nginx and the
// instances can write the directory (README), so no token is needed in it.
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Principal } from '../access/authenticator.ts';
import { PRERENDERED_VIEWS } from '../api/operations.ts';
import { addressKey } from '../lib/client-address.ts';
import type { AccessLog } from './log.ts';
import { edgeCounts } from './edge-counts.ts';
import type { Runtime } from './runtime.ts';
import { recordServed } from './steps/on-close.ts';

/** The first word of the edge's line (deploy/nginx/tai-edge.conf.template, `log_format tai_charge`). */
export const CHARGE_TAG = 'tai-edge-charge';
/** The line format's version (the second word). */
const FORMAT = '2';
const VIEWS = new Set<string>(PRERENDERED_VIEWS);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A line nginx writes is a few hundred bytes: anything longer is not one. */
const MAX_LINE = 2048;
/** Read at most this much of a file per turn: the event loop answers requests in between. */
const READ_CHUNK = 256 * 1024;

/** The file nginx appends the charges of instance `name` to (its port: unique on the host). */
export const chargeLogFile = (dir: string, name: string) => path.join(dir, `charges-${name}.log`);

export interface Charge {
  principal: Extract<Principal, { kind: 'key' }>;
  status: number;
  method: string;
  path: string;
  requestId: string;
  ip: string;
  ms: number;
}

/** One line of the charge log to a charge, or null when it is not a well-formed line of our edge. */
export function parseCharge(line: string): Charge | null {
  if (line.length > MAX_LINE) return null;
  const f = line.trimEnd().split(' ');
  if (f.length !== 11 || f[0] !== CHARGE_TAG || f[1] !== FORMAT) return null;
  const [, , id, tier, prefix, status, method, path, requestId, ip, seconds] = f as string[];
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
    counted.catch((err: unknown) => {
      edgeCounts.unquota++;
      deps.log.warn({ err: (err as Error).message }, 'edge charge: quota not counted');
    });
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

export interface ChargeReader {
  /** The name nginx is told to write this instance's charges under (X-Tai-Charge-Log). */
  name: string;
  /** Milliseconds since this reader last had read every line written (0: caught up now). */
  lagMs(): number;
  /** Reads and charges what is left, then stops. */
  close(): Promise<void>;
}

interface Position {
  ino: number;
  offset: number;
}
/** The durable offsets: the live file, and the one being drained after a rotation. */
interface Offsets {
  live: Position | null;
  old: (Position & { size: number; since: number }) | null;
}

/** The offsets saved by the last run, or none (a first start, or an unreadable file: said). */
function readOffsets(offsetFile: string, log: ChargeDeps['log']): Offsets {
  try {
    return JSON.parse(readFileSync(offsetFile, 'utf8')) as Offsets;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      log.error(
        { err: (err as Error).message, file: offsetFile },
        'edge charges: offset unreadable, starting at 0',
      );
    return { live: null, old: null };
  }
}

/** Saves the offsets atomically (a rename), so a crash leaves the old ones or the new. */
function saveOffsets(offsetFile: string, offsets: Offsets): void {
  const tmp = `${offsetFile}.tmp`;
  writeFileSync(tmp, JSON.stringify(offsets));
  renameSync(tmp, offsetFile);
}

/** Charges each complete line of `text`; a line that is not a charge is counted lost and said. */
function chargeLines(text: string, file: string, deps: ChargeDeps): void {
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const c = parseCharge(line);
    if (c === null) {
      edgeCounts.lost++;
      deps.log.error(
        { file, line: line.slice(0, 200) },
        'edge charges: a line that is not a charge',
      );
      continue;
    }
    edgeCounts.charged++;
    charge(c, deps);
  }
}

/**
 * Reads one file from `pos` (same inode) or from 0 (another file), charging its complete lines:
 * the new position, whether it is at the file's end, the file's size, and the bytes left unread.
 */
function drainFile(
  file: string,
  pos: Position | null,
  deps: ChargeDeps,
): { pos: Position | null; atEnd: boolean; size: number; pending: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { pos: null, atEnd: true, size: 0, pending: 0 };
    throw err;
  }
  try {
    const { ino, size } = fstatSync(fd);
    let offset = pos && pos.ino === ino && pos.offset <= size ? pos.offset : 0;
    if (pos && pos.ino === ino && pos.offset > size)
      deps.log.error(
        { file, offset: pos.offset, size },
        'edge charges: file shorter than its offset (truncated?), read from 0',
      );
    const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, Math.max(0, size - offset)));
    const n = buf.length > 0 ? readSync(fd, buf, 0, buf.length, offset) : 0;
    const last = buf.lastIndexOf(10, n - 1);
    if (last >= 0) {
      chargeLines(buf.toString('latin1', 0, last + 1), file, deps);
      offset += last + 1;
    } else if (n === READ_CHUNK) {
      // A "line" longer than any nginx writes: skip it (counted as lost) rather than stall.
      edgeCounts.lost++;
      offset += n;
    }
    return { pos: { ino, offset }, atEnd: offset === size, size, pending: size - offset };
  } finally {
    closeSync(fd);
  }
}

/**
 * Tails `<dir>/charges-<name>.log` from the offset saved in `<dir>/charges-<name>.offset`,
 * charging each complete line. At `rotateBytes` the file is renamed to `….log.old` (nginx opens a
 * new one within its open_log_file_cache validity, 1 s) and drained until it has not grown for
 * `settleMs`, then removed.
 */
export function startChargeReader(
  dir: string,
  name: string,
  deps: ChargeDeps,
  options: { intervalMs?: number; rotateBytes?: number; settleMs?: number } = {},
): ChargeReader {
  const { intervalMs = 50, rotateBytes = 64 * 1024 * 1024, settleMs = 3000 } = options;
  const live = chargeLogFile(dir, name);
  const old = `${live}.old`;
  const offsetFile = path.join(dir, `charges-${name}.offset`);
  const offsets = readOffsets(offsetFile, deps.log);
  let caughtUpAt = Date.now();
  let closed = false;

  let pending = 0;
  const turn = () => {
    pending = 0;
    const before = JSON.stringify(offsets);
    let atEnd = true;
    if (offsets.old || existsSync(old)) {
      const o = drainFile(old, offsets.old ?? offsets.live, deps);
      pending += o.pending;
      atEnd &&= o.atEnd;
      const now = Date.now();
      if (o.pos === null) offsets.old = null;
      else {
        const grew = !offsets.old || o.size !== offsets.old.size;
        offsets.old = { ...o.pos, size: o.size, since: grew ? now : offsets.old!.since };
        if (o.atEnd && now - offsets.old.since >= settleMs) {
          unlinkSync(old);
          offsets.old = null;
        }
      }
      // A rename saved before the offsets were: the live position was the old file's.
      if (offsets.old && offsets.live?.ino === offsets.old.ino) offsets.live = null;
    }
    const l = drainFile(live, offsets.live, deps);
    pending += l.pending;
    offsets.live = l.pos;
    atEnd &&= l.atEnd;
    if (atEnd) caughtUpAt = Date.now();
    if (atEnd && !offsets.old && l.pos && l.size >= rotateBytes) {
      renameSync(live, old);
      offsets.old = { ...l.pos, size: l.size, since: Date.now() };
      offsets.live = null;
    }
    if (JSON.stringify(offsets) !== before) saveOffsets(offsetFile, offsets);
    edgeCounts.pendingBytes = pending;
    return atEnd;
  };
  /** One turn; true when every line written was read. */
  const safeTurn = (): boolean => {
    try {
      return turn();
    } catch (err) {
      deps.log.error(
        { err: (err as Error).message, dir },
        'edge charges: reading failed (retried)',
      );
      return false;
    }
  };

  safeTurn();
  const timer = setInterval(() => void safeTurn(), intervalMs);
  timer.unref();
  return {
    name,
    lagMs: () => Date.now() - caughtUpAt,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      // What nginx wrote before we stopped answering is ours to charge.
      for (let i = 0; i < 64 && !(safeTurn() && pending === 0); i++);
    },
  };
}
