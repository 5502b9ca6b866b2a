// Connections whose last request was refused without a working key are read in turns while
// clients with a key are being served (issue 37 item 4): after such an answer the connection is
// not read again until its turn, and at most `perTurn` of them are resumed per turn of the event
// loop. A flood of refusals on many connections then shares each turn with the keyed clients'
// requests instead of filling it: a keyed client waits behind a few refusals, not behind every
// flooding connection. With no keyed request in the last `keyedWindowMs`, nobody is waiting on
// the flood and connections are read as they come. Nothing is refused or dropped here: a deferred
// connection's next request is read a turn later.
import type { Socket } from 'node:net';

/** Refused connections read again per turn while keyed requests are served (measured in
 * bench/results/2026-12-07-refused-reads.md). */
export const REFUSED_READS_PER_TURN = 1;
/** How long after a keyed request the refused connections are still read in turns. */
export const KEYED_WINDOW_MS = 1000;

/** Set on a connection that has carried a request with a working key: it is never deferred. */
const CARRIED_KEYED = Symbol('tai.carriedKeyed');
type Connection = Socket & { [CARRIED_KEYED]?: true };

export interface RefusedReads {
  /** A request with a working key (or DEMO_KEY) was served on `socket` at `now` (ms, monotonic). */
  keyed(socket: Socket, now: number): void;
  /**
   * Stops reading `socket` until its turn (a refused request was just answered on it), unless it
   * has carried a keyed request: a proxy's pooled connection (the edge's) carries everyone's
   * requests, and a paying client's must not wait behind its neighbour's refusal.
   */
  defer(socket: Socket, now: number): void;
  /** Connections waiting for their turn. */
  readonly waiting: number;
}

export function refusedReads(perTurn: number, keyedWindowMs: number): RefusedReads {
  const queue: Socket[] = [];
  let head = 0;
  let scheduled = false;
  let lastKeyed = -Infinity;

  function turn(): void {
    scheduled = false;
    const end = Math.min(queue.length, head + perTurn);
    for (; head < end; head++) {
      const socket = queue[head]!;
      if (!socket.destroyed) socket.resume();
    }
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    } else schedule();
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    // setImmediate: the sockets are polled between two turns, so keyed requests that arrived
    // meanwhile are read before the next refused connections.
    setImmediate(turn);
  }

  return {
    keyed(socket, now) {
      lastKeyed = now;
      (socket as Connection)[CARRIED_KEYED] = true;
    },
    defer(socket, now) {
      if (now - lastKeyed > keyedWindowMs || (socket as Connection)[CARRIED_KEYED]) return;
      if (socket.destroyed || socket.isPaused()) return;
      socket.pause();
      queue.push(socket);
      schedule();
    },
    get waiting() {
      return queue.length - head;
    },
  };
}
