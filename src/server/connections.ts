// Connection budgets (issue #14 item 6). A client that never reads its responses keeps its socket
// and the kernel's send queue for as long as the server lets it; a few hundred of them from one
// address used to exhaust the file descriptors, /healthz included. Three limits:
// - MAX_CONNECTIONS: sockets open at once; past it new ones get a 503 and are closed;
// - MAX_CONNECTIONS_PER_ADDRESS: the same per client address (IPv6 by /64), so one address
//   cannot take the whole budget: other clients (and the orchestrator's /healthz) still get in;
// - SEND_TIMEOUT_MS: a socket on which nothing could be written or read for that long is
//   destroyed, with what it had queued (nginx's send_timeout). Idle keep-alive sockets close
//   earlier, after KEEP_ALIVE_TIMEOUT_MS.
// The per-address counts live only while the sockets do: the map is never larger than the cap.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from '../lib/client-address.ts';

export interface ConnectionLimits {
  maxConnections: number;
  /** 0: no per-address limit (behind a proxy every connection comes from the proxy). */
  maxPerAddress: number;
  sendTimeoutMs: number;
  /** The bytes to send to a refused socket before closing it. */
  refusal: () => string;
}

export interface ConnectionStats {
  open: number;
  refused: number;
  timedOut: number;
}

export function limitConnections(server: Server, limits: ConnectionLimits): () => ConnectionStats {
  const perAddress = new Map<string, number>();
  const stats: ConnectionStats = { open: 0, refused: 0, timedOut: 0 };

  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress) ?? String(socket.remoteAddress);
    const mine = (perAddress.get(key) ?? 0) + 1;
    if (
      stats.open >= limits.maxConnections ||
      (limits.maxPerAddress > 0 && mine > limits.maxPerAddress)
    ) {
      stats.refused++;
      // Answered before any request is read, then closed; a peer that does not read cannot hold it.
      const close = setTimeout(() => socket.destroy(), 1000);
      close.unref();
      socket.end(limits.refusal(), () => socket.destroy());
      socket.once('close', () => clearTimeout(close));
      return;
    }
    stats.open++;
    perAddress.set(key, mine);
    socket.once('close', () => {
      stats.open--;
      const left = (perAddress.get(key) ?? 1) - 1;
      if (left > 0) perAddress.set(key, left);
      else perAddress.delete(key);
    });
  });

  // Node applies server.timeout as socket inactivity (no byte read or written); with a listener
  // the socket is ours to close.
  server.setTimeout(limits.sendTimeoutMs, (socket: Socket) => {
    stats.timedOut++;
    socket.destroy();
  });
  return () => ({ ...stats });
}

/**
 * Sets the send timeout on a request's socket (a comparison when it is still set). Node clears a
 * socket's timeout when a keep-alive connection gets its next request; the pipeline calls this
 * when a request's answer may wait or may be left queued (pipeline.ts).
 */
export function sendTimeoutArmer(sendTimeoutMs: number): (req: { socket: Socket }) => void {
  return (req) => {
    if (req.socket.timeout !== sendTimeoutMs) req.socket.setTimeout(sendTimeoutMs);
  };
}
