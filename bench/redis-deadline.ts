// How long one shared-quota decision takes on Redis (rate-limiter-flexible over ioredis, the
// instance's own path), idle and with every core busy, and what a starved event loop adds:
// the numbers REDIS_TIMEOUT_MS is sized from (docs/production.md "Instances and the Redis fallback").
// Run: TEST_REDIS_URL=redis://127.0.0.1:6379 node bench/redis-deadline.ts
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';

const url = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const client = new Redis(url, { enableAutoPipelining: true, maxRetriesPerRequest: 0 });
const limiter = new RateLimiterRedis({
  storeClient: client,
  keyPrefix: `tai-bench-${randomUUID().slice(0, 8)}`,
  points: 1e9,
  duration: 60,
});

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Decisions for `ms` with `inFlight` concurrent callers; latency of each in ms. */
async function run(ms: number, inFlight: number): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: inFlight }, async (_, i) => {
      while (performance.now() < until) {
        const t0 = performance.now();
        await limiter.consume(`subject-${i % 8}`, 1);
        times.push(performance.now() - t0);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

function line(label: string, t: number[], lag: ReturnType<typeof monitorEventLoopDelay>) {
  const f = (n: number) => n.toFixed(2).padStart(8);
  console.log(
    `| ${label.padEnd(34)} | ${String(t.length).padStart(7)} | ${f(pct(t, 50))} | ${f(pct(t, 99))} | ${f(pct(t, 99.9))} | ${f(t.at(-1)!)} | ${f(lag.max / 1e6)} |`,
  );
}

await client.ping();
await run(1000, 50); // warm-up
console.log(`Redis decision latency (ms), ${availableParallelism()} cores, ${url}`);
console.log(
  '| condition                          | decisions |    p50   |    p99   |  p99.9   |   max    | loop lag max |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [label, burnersPerCore] of [
  ['idle, 50 in flight', 0],
  ['every core busy ×1, 50 in flight', 1],
  ['every core busy ×3, 50 in flight', 3],
] as const) {
  const burners: ChildProcess[] = [];
  for (let i = 0; i < availableParallelism() * burnersPerCore; i++)
    burners.push(fork('-e', [], { execArgv: ['-e', 'for(;;){}'], stdio: 'ignore' }));
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const t = await run(5000, 50);
  lag.disable();
  for (const b of burners) b.kill('SIGKILL');
  line(label, t, lag);
}
client.disconnect();
