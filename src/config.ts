// Configuration from environment variables, validated once at start-up. A bad value stops the
// process with a message naming the variable, the value and what is accepted.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseQuota, type Quota } from './access/rate-limit.ts';

const intIn = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const quota = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx): Quota => {
      const parsed = parseQuota(v === undefined || v === '' ? fallback : v);
      if (!parsed) {
        ctx.addIssue({ code: 'custom', message: 'must be "<requests>/<seconds>", e.g. "600/60"' });
        return z.NEVER;
      }
      return parsed;
    });

const bool = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (/^(true|1|yes|on)$/i.test(v)) return true;
      if (/^(false|0|no|off)$/i.test(v)) return false;
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    });

/**
 * The default connection budget: the process's open-file limit less 64 descriptors for the
 * database, the log, the pack and the listening socket (so that sockets can never starve them),
 * at most 4096. Read from /proc; 4096 where it cannot be read.
 */
function defaultMaxConnections(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const soft = /^Max open files\s+(\d+|unlimited)/m.exec(limits)?.[1];
    if (!soft || soft === 'unlimited') return 4096;
    return Math.max(16, Math.min(4096, Number(soft) - 64));
  } catch {
    return 4096;
  }
}
const MAX_CONNECTIONS_DEFAULT = defaultMaxConnections();

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * TRUST_PROXY: "false" (default: X-Forwarded-For is ignored), "true" (trust every hop — only
 * behind a proxy that overwrites the header), a hop count, or a comma list of addresses/CIDRs
 * and the keywords loopback, linklocal, uniquelocal (proxy-addr syntax).
 */
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx): false | true | number | string[] => {
    const value = (v ?? 'false').trim();
    if (value === '' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value)) return Number(value);
    const list = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const ok = list.every((s) =>
      /^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/\d{1,3})?)$/.test(s),
    );
    if (!ok) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be false, true, a hop count, or a comma list of IP addresses, CIDRs or loopback/linklocal/uniquelocal',
      });
      return z.NEVER;
    }
    return list;
  });

export const configSchema = z.object({
  PORT: intIn(0, 65535, 4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  TRUST_PROXY: trustProxy,
  /** Where the JSON log lines go: "stdout" or a file path (appended). */
  LOG_DESTINATION: z.string().min(1).default('stdout'),
  /** Log bytes that may wait for a slow destination; past it lines are dropped and counted. */
  LOG_BUFFER_BYTES: intIn(65_536, 268_435_456, 4_194_304),
  /** Where the built site lives (dist/ of `npm run build`). */
  DIST_DIR: z.string().min(1).default('dist'),
  /** The built dataset (build/dataset.json of `npm run build`). */
  TAI_DATASET: z.string().min(1).default('build/dataset.json'),
  HEADERS_TIMEOUT_MS: intIn(1000, 120_000, 10_000),
  REQUEST_TIMEOUT_MS: intIn(1000, 300_000, 30_000),
  KEEP_ALIVE_TIMEOUT_MS: intIn(100, 120_000, 5_000),
  SHUTDOWN_GRACE_MS: intIn(0, 120_000, 10_000),
  /** A socket on which nothing could be written or read for this long is closed (slow readers). */
  SEND_TIMEOUT_MS: intIn(1000, 600_000, 30_000),
  /** Sockets open at once; past it new connections get 503 and are closed. Default: `ulimit -n` − 64, at most 4096. */
  MAX_CONNECTIONS: intIn(1, 1_000_000, MAX_CONNECTIONS_DEFAULT),
  /** Sockets per client address (IPv6 by /64); 0 switches the limit off (set 0 behind a proxy). Default: a quarter of the budget, at most 256. */
  MAX_CONNECTIONS_PER_ADDRESS: intIn(
    0,
    1_000_000,
    Math.min(256, Math.max(1, Math.floor(MAX_CONNECTIONS_DEFAULT / 4))),
  ),
  MAX_HEADER_BYTES: intIn(1024, 65_536, 16_384),
  MAX_URL_BYTES: intIn(256, 16_384, 4_096),
  /** The service database: PostgreSQL when set (postgres://…), else SQLite in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^postgres(ql)?:\/\//.test(v), {
      message: 'must be a postgres:// or postgresql:// URL',
    })
    .transform((v) => (v ? v : undefined)),
  DATA_DIR: z.string().min(1).default('var'),
  /** Every database query's deadline: a hung or locked database fails instead of waiting. */
  DB_QUERY_TIMEOUT_MS: intIn(100, 60_000, 2_000),
  /** The local metering journal (crash- and outage-safe usage counts); default DATA_DIR/metering. */
  METERING_DIR: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  DEMO_KEY_ENABLED: bool(true),
  RATE_LIMIT_DEMO: quota('100/3600'),
  RATE_LIMIT_INSTITUTIONAL: quota('600/60'),
  RATE_LIMIT_ENTERPRISE: quota('6000/60'),
  FAILED_AUTH_LIMIT: quota('20/300'),
  /**
   * Requests refused without a working key (no key, an invalid one, an unknown path)
   * per client address and window, per instance; past it the address is answered
   * 429 at once (src/access/refusal-limit.ts).
   */
  REFUSAL_LIMIT: quota('300/60'),
  KEY_CACHE_MS: intIn(0, 60_000, 5_000),
  KEY_STALE_GRACE_MS: intIn(0, 86_400_000, 900_000),
  FLUSH_MS: intIn(100, 600_000, 5_000),
  HEARTBEAT_MS: intIn(100, 600_000, 15_000),
  STATUS_CACHE_MS: intIn(0, 60_000, 1_000),
  /** Bearer token for /metrics; when unset, /metrics answers loopback clients only. */
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** Shared quotas (docs/production.md "Shared quotas on Redis"): every tier and the failed-auth block counted in Redis. */
  REDIS_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^rediss?:\/\/[^\s]+$/.test(v), {
      message: 'must be a redis:// or rediss:// URL',
    })
    .transform((v) => (v ? v : undefined)),
  /** Prefix of every quota key in Redis (one per deployment sharing a Redis). */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1 to 64 of A-Z a-z 0-9 : _ . -')
    .default('tai'),
  /** A Redis command's deadline; past it (or on any error) the instance counts locally. */
  REDIS_TIMEOUT_MS: intIn(10, 10_000, 250),
  /** The most quota tokens one lease from Redis holds (1: every decision asks Redis). */
  REDIS_LEASE_MAX: intIn(1, 10_000, 1_000),
  /** A lease unused this long goes back to Redis (its client moved to another instance). */
  REDIS_LEASE_IDLE_MS: intIn(100, 600_000, 1_000),
  /** While Redis is unreachable each instance allows this share of every quota (1/N for N instances). */
  REDIS_FALLBACK_SHARE: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return 0.5;
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0 || n > 1) {
        ctx.addIssue({ code: 'custom', message: 'must be a number above 0 and at most 1' });
        return z.NEVER;
      }
      return n;
    }),
  /**
   * Directory where the edge (nginx) writes one charge log per instance, for each request it
   * answered from a decision this instance made (`charges-<port>.log`, edge-charges.ts): read
   * and charged here to the key's quota and usage. Unset: the edge never reuses a decision
   * (every request asks an instance).
   */
  EDGE_CHARGE_DIR: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** How long (seconds) the edge may reuse an instance's decision for a key; 0: never. */
  EDGE_AUTH_CACHE_SECONDS: intIn(0, 60, 2),
  /**
   * How long (seconds) a signed download URL is valid from its issue (src/server/signed-downloads.ts):
   * the longest a revoked or over-quota key can still start a download with a URL it holds.
   */
  EDGE_SIGNED_URL_SECONDS: intIn(1, 3600, 60),
  /** Shared secret of the edge (nginx auth_request); unset, the internal edge endpoint does not exist. */
  EDGE_AUTH_TOKEN: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^[A-Za-z0-9_-]{32,256}$/.test(v), {
      message: 'must be 32 to 256 of A-Z a-z 0-9 _ - (e.g. `openssl rand -hex 32`)',
    })
    .transform((v) => (v ? v : undefined)),
  /** Ed25519 private key (PKCS#8 PEM) signing every /v1 answer (src/representation/signing-key.ts); unset: unsigned. */
  SIGNING_KEY_FILE: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /**
   * `generate` (what `npm start` sets): without SIGNING_KEY_FILE, sign with a key generated once
   * into DATA_DIR/signing-key.pem and kept there. Production names its key in SIGNING_KEY_FILE.
   */
  SIGNING_KEY_MODE: z.enum(['file', 'generate']).default('file'),
  /** The key id published and named in signatures; default the RFC 7638 thumbprint of the key. */
  SIGNING_KEY_ID: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** A JWK Set of rotated-out public keys, still published at /.well-known/jwks.json. */
  SIGNING_PREVIOUS_KEYS_FILE: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** Serve lookup hits and prebuilt datasets from memory (on), or send everything to Astro (off: for comparison tests). */
  FAST_PATH: z.enum(['on', 'off']).default('on'),
});

export type Config = z.infer<typeof configSchema>;

/** Rules between variables, checked after each variable is valid on its own. */
const crossChecks = configSchema.superRefine((c, ctx) => {
  if (c.MAX_CONNECTIONS_PER_ADDRESS > c.MAX_CONNECTIONS)
    ctx.addIssue({
      code: 'custom',
      path: ['MAX_CONNECTIONS_PER_ADDRESS'],
      message: `must not exceed MAX_CONNECTIONS (${c.MAX_CONNECTIONS}): one address could take every connection`,
    });
  if (c.EDGE_CHARGE_DIR && !c.EDGE_AUTH_TOKEN)
    ctx.addIssue({
      code: 'custom',
      path: ['EDGE_CHARGE_DIR'],
      message: 'needs EDGE_AUTH_TOKEN: only the edge makes charges, and only with that token',
    });
  // The edge's authorization answer is folded from the decision the server's own writer makes
  // (edge-auth.ts); FAST_PATH=off hands every operation to Astro, which writes its own.
  if (c.EDGE_AUTH_TOKEN && c.FAST_PATH === 'off')
    ctx.addIssue({
      code: 'custom',
      path: ['FAST_PATH'],
      message: 'must be on with EDGE_AUTH_TOKEN: the edge folds the answers made from memory',
    });
});

export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = crossChecks.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => {
    const name = String(i.path[0]);
    return `  ${name}=${JSON.stringify(env[name] ?? '')}: ${i.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
