// Two instances sharing Redis (their own key prefix and data directory) behind one nginx edge:
// what the multi-instance edge tests start. Kept apart from nginx.ts, which knows no server.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEdge, upstreamsFor, type RunningEdge } from './nginx.ts';
import { startServer, type TestServer } from './server.ts';

export interface EdgePair {
  instances: TestServer[];
  edge: RunningEdge;
}

/**
 * `env` goes to both instances (with the edge token, loopback as the trusted proxy, no
 * per-address connection cap, Redis), `edgeVars` to the edge's template.
 */
export async function startEdgePair(options: {
  token: string;
  redisUrl: string;
  env: Record<string, string>;
  edgeVars?: { TAI_CHARGE_DIR?: string };
}): Promise<EdgePair> {
  const shared = {
    EDGE_AUTH_TOKEN: options.token,
    TRUST_PROXY: 'loopback',
    MAX_CONNECTIONS_PER_ADDRESS: '0',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tai-edge-pair-')),
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: `tai-test-${randomUUID().slice(0, 8)}`,
    ...options.env,
  };
  const instances = await Promise.all([startServer(shared), startServer(shared)]);
  try {
    const edge = await startEdge({
      TAI_DIST_CLIENT: path.resolve(process.env['DIST_DIR'] ?? 'dist', 'client'),
      TAI_UPSTREAMS: upstreamsFor(instances.map((s) => s.port)),
      TAI_EDGE_TOKEN: options.token,
      ...options.edgeVars,
    });
    return { instances, edge };
  } catch (err) {
    await Promise.all(instances.map((s) => s.stop()));
    throw err;
  }
}
