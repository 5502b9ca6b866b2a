// node bench/quota-decision.ts — the CPU of one quota decision alone, in this process: the
// in-memory limiter against Redis spending leases of REDIS_LEASE_MAX tokens (100, 1000, 10000),
// 200,000 decisions for one key, three rounds each (the first warms up). What a lease costs is
// its round trip (EVALSHA over ioredis) shared by the tokens it brings, plus a map lookup per
// decision. Needs Redis (BENCH_REDIS_URL, redis://127.0.0.1:6379); its keys expire in a minute.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../src/access/authenticator.ts';
import { memoryQuotas } from '../src/access/quotas.ts';
import type { QuotaConfig, Quotas } from '../src/access/quota-backend.ts';
import { redisQuotas } from '../src/access/redis-limiter.ts';

const REDIS_URL = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const DECISIONS = 200_000;
const open = { requests: 1_000_000_000, windowSeconds: 60 };
const config = (leaseMax: number): QuotaConfig & { REDIS_URL: string } => ({
  RATE_LIMIT_DEMO: open,
  RATE_LIMIT_INSTITUTIONAL: open,
  RATE_LIMIT_ENTERPRISE: open,
  FAILED_AUTH_LIMIT: { requests: 20, windowSeconds: 300 },
  REDIS_URL,
  REDIS_KEY_PREFIX: `tai-bench-decision-${randomUUID().slice(0, 8)}`,
  REDIS_TIMEOUT_MS: 250,
  REDIS_FALLBACK_SHARE: 0.5,
  REDIS_LEASE_MAX: leaseMax,
  REDIS_LEASE_IDLE_MS: 1000,
});
const principal = { kind: 'key', id: 'bench', tier: 'institutional' } as Principal;

async function microsPerDecision(quotas: Quotas): Promise<number> {
  let last = NaN;
  for (let round = 0; round < 3; round++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < DECISIONS; i++) {
      const d = quotas.limits.consume(principal, '127.0.0.1');
      if (d instanceof Promise) await d;
    }
    const t = process.cpuUsage(t0);
    last = (t.user + t.system) / DECISIONS;
  }
  await quotas.close();
  return last;
}

const rows: [string, number][] = [['in memory', await microsPerDecision(memoryQuotas(config(1)))]];
for (const max of [100, 1000, 10_000])
  rows.push([`Redis, leases of ${max}`, await microsPerDecision(await redisQuotas(config(max)))]);
console.log(
  [
    '| quota | CPU µs per decision (third round) |',
    '|---|---:|',
    ...rows.map(([name, us]) => `| ${name} | ${us.toFixed(2)} |`),
  ].join('\n'),
);
