// npm run bench:soak — minutes of mixed traffic against our server (full pipeline), reporting
// RSS and open file descriptors over time. SOAK_SECONDS (180), SOAK_CONNECTIONS (20).
import { readdirSync, readFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { startServer } from '../test/helpers/server.ts';

const SECONDS = Number(process.env['SOAK_SECONDS'] ?? 180);
const CONNECTIONS = Number(process.env['SOAK_CONNECTIONS'] ?? 20);

export const MIXED_PATHS = [
  '/v1/registry/assets',
  '/v1/registry/assets?asset_class=FUND&sort=-risk',
  '/v1/registry/assets?q=bond&limit=5',
  '/v1/registry/asset?tfin=TFIN-DEBT-ETH-2021-0001',
  '/v1/registry/asset?tfin=TFIN-DEBT-ETH-2099-0001',
  '/v1/registry/asset?tfin=bad',
  '/v1/market/stablecoins?peg_currency=EUR',
  '/v1/compliance/mica-status?member_state=fr',
  '/v1/system/status',
  '/v1/nope',
];

export function sample(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    rssMb: Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024),
    fds: readdirSync(`/proc/${pid}/fd`).length,
  };
}

/** Drives `count` requests (or until `until`) over `connections` keep-alive connections. */
export async function drive(
  base: string,
  connections: number,
  stop: { count?: number; until?: number },
) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const path = MIXED_PATHS[sent % MIXED_PATHS.length]!;
      sent++;
      const req = request(
        `${base}${path}`,
        {
          agent,
          headers: { 'x-api-key': 'DEMO_KEY', 'accept-encoding': sent % 2 ? 'br' : 'identity' },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => resolve());
      req.end();
    });
  const more = () => (stop.count !== undefined ? sent < stop.count : Date.now() < stop.until!);
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (more()) await one();
    }),
  );
  agent.destroy();
  return sent;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startServer({ LOG_LEVEL: 'info' });
  const pid = server.child.pid!;
  const started = Date.now();
  console.log(
    `soak: ${SECONDS} s of mixed traffic over ${CONNECTIONS} connections\n\n| t (s) | requests | RSS MB | open fds |\n|---:|---:|---:|---:|`,
  );
  let total = 0;
  const report = () => {
    const s = sample(pid);
    console.log(
      `| ${Math.round((Date.now() - started) / 1000)} | ${total} | ${s.rssMb} | ${s.fds} |`,
    );
  };
  report();
  while (Date.now() - started < SECONDS * 1000) {
    total += await drive(server.url, CONNECTIONS, { until: Date.now() + 10_000 });
    report();
  }
  await server.stop();
}
