// node bench/redis-quota.ts — the Redis quota section of `npm run bench` alone (bench/edge.ts):
// our server spending quota leases, with one Redis round trip per request, and in memory, in
// alternating rounds. Options (env) as npm run bench: BENCH_SECONDS (2), BENCH_ROUNDS (15),
// BENCH_CONNECTIONS (50), BENCH_REDIS_URL. Needs `npm run build`.
import path from 'node:path';
import { redisSection } from './edge.ts';
import { loadGenerator } from './load.ts';
import { placement } from './pin.ts';

const gen = loadGenerator();
const lines = await redisSection(gen, {
  seconds: Number(process.env['BENCH_SECONDS'] ?? 2),
  rounds: Number(process.env['BENCH_ROUNDS'] ?? 15),
  connections: Number(process.env['BENCH_CONNECTIONS'] ?? 50),
  client: path.resolve(process.env['DIST_DIR'] ?? 'dist', 'client'),
});
console.log([`${gen.name}; ${placement()}`, '', ...lines].join('\n'));
