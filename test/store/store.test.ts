// One contract for the service database, run against SQLite and PostgreSQL alike.
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../src/store/migrations.ts';
import { openDb } from '../../src/store/open.ts';
import { Store } from '../../src/store/store.ts';
import type { Db } from '../../src/store/db.ts';
import type { StatusClass } from '../../src/domain/billing.ts';
import { postgresSchema, sqliteDir } from '../helpers/databases.ts';
import { proxiedPostgres } from '../helpers/tcp-proxy.ts';
import { describeNeeding } from '../helpers/skip-note.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

const drivers: [string, () => Promise<{ open: () => Db }>][] = [
  [
    'sqlite',
    async () => {
      const dir = sqliteDir();
      return { open: () => openDb({ DATA_DIR: dir }) };
    },
  ],
  [
    'postgres',
    async () => {
      const s = await postgresSchema();
      cleanups.push(s.drop);
      return { open: () => openDb({ DATA_DIR: 'unused', DATABASE_URL: s.url }) };
    },
  ],
];

for (const [driver, setup] of drivers) {
  // The PostgreSQL suite needs a server: its skip says so (and CI refuses to skip it).
  (driver === 'postgres' ? describeNeeding('postgres') : describe)(`store on ${driver}`, () => {
    it('migrates once, even when two instances start together', async () => {
      const { open } = await setup();
      const a = open();
      const b = open();
      const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
      expect([...ra, ...rb].sort()).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await migrate(a)).toEqual([]);
      const versions = await a.all<{ version: number }>('SELECT version FROM schema_migrations');
      expect(versions.map((v) => Number(v.version))).toEqual(MIGRATIONS.map((m) => m.version));
      await a.close();
      await b.close();
    });

    it('stores keys by digest, revokes by id or prefix, counts active keys', async () => {
      const { open } = await setup();
      const db = open();
      await migrate(db);
      const store = new Store(db);
      await store.insertKey({
        id: 'k1',
        key_hash: 'a'.repeat(64),
        display_prefix: 'tai_live_AAAAAA',
        tier: 'institutional',
        owner: 'One',
        created_at: 1,
      });
      await store.insertKey({
        id: 'k2',
        key_hash: 'b'.repeat(64),
        display_prefix: 'tai_live_BBBBBB',
        tier: 'enterprise',
        owner: 'Two',
        created_at: 2,
      });
      const found = await store.keysByHashes(['a', 'c', 'b'].map((c) => c.repeat(64)));
      expect(found.map((k) => k.id).sort()).toEqual(['k1', 'k2']);
      expect(await store.keysByHashes(['c'.repeat(64)])).toEqual([]);
      expect(await store.keysByHashes([])).toEqual([]);
      expect(await store.activeKeyCount()).toBe(2);
      expect((await store.revokeKey('tai_live_BBBBBB', 99)).map((k) => k.id)).toEqual(['k2']);
      expect(await store.revokeKey('k2', 100)).toEqual([]);
      expect((await store.keysByHashes(['b'.repeat(64)]))[0]?.revoked_at).toBe(99);
      expect(await store.activeKeyCount()).toBe(1);
      await db.close();
    });

    it('adds usage and latency batches by upsert, so instances and retries add up', async () => {
      const { open } = await setup();
      const db = open();
      await migrate(db);
      const store = new Store(db);
      const u = (endpoint: string, requests: number, status_class: StatusClass = '2xx') => ({
        key_id: 'k1',
        day: '2026-11-21',
        endpoint,
        status_class,
        requests,
      });
      await store.addUsage([u('/v1/registry/assets', 3)]);
      await store.addUsage([
        u('/v1/registry/assets', 2),
        u('/v1/registry/asset', 1),
        u('/v1/registry/asset', 4, '4xx'),
      ]);
      // Every status class is kept (operators see refusals); only 2xx is billable.
      expect(await store.usage({ keyId: 'k1' })).toEqual([
        { ...u('/v1/registry/asset', 1), billable: true },
        { ...u('/v1/registry/asset', 4, '4xx'), billable: false },
        { ...u('/v1/registry/assets', 5), billable: true },
      ]);
      await store.addLatency([{ minute: 100, endpoint: 'e', bucket: 3, requests: 2 }]);
      await store.addLatency([
        { minute: 100, endpoint: 'e', bucket: 3, requests: 1 },
        { minute: 101, endpoint: 'e', bucket: 4, requests: 5 },
      ]);
      expect((await store.latencyWindow(100)).sort((a, b) => a.bucket - b.bucket)).toEqual([
        { endpoint: 'e', bucket: 3, requests: 3 },
        { endpoint: 'e', bucket: 4, requests: 5 },
      ]);
      expect(await store.latencyWindow(101)).toEqual([{ endpoint: 'e', bucket: 4, requests: 5 }]);
      expect(await store.requestsSince(100)).toBe(8);
      // A batch retried after a lost acknowledgement is applied once.
      const retried = [{ ...u('x', 4), key_id: 'k2' }];
      expect(await store.addUsage(retried, 'batch-1')).toBe(true);
      expect(await store.addUsage(retried, 'batch-1')).toBe(false);
      expect(await store.usage({ keyId: 'k2' })).toEqual([{ ...retried[0], billable: true }]);
      await db.close();
    });

    it('keeps running intervals per instance and prunes history in small steps', async () => {
      const { open } = await setup();
      const db = open();
      await migrate(db);
      const store = new Store(db);
      const t = 60_000 * 1000;
      const i1 = { id: 'i1', startedAt: t, host: 'h', pid: 1 };
      await store.heartbeat(i1, t, t);
      await store.heartbeat(i1, t, t + 10_000);
      await store.heartbeat({ id: 'i2', startedAt: t, host: 'h', pid: 2 }, t + 60_000, t + 90_000);
      await store.heartbeat(i1, t + 170_000, t + 180_000);
      expect(await store.uptimeIntervals(t, t + 200_000)).toEqual({
        intervals: [
          [t, t + 10_000],
          [t + 60_000, t + 90_000],
          [t + 170_000, t + 180_000],
        ],
        first: t,
      });
      expect(await store.instancesAlive(t + 180_000, 60_000)).toBe(1);
      expect(await store.instancesAlive(t + 180_000, 200_000)).toBe(2);
      // Three hours of latency history: each step removes at most one hour.
      for (let m = 0; m < 180; m++)
        await store.addLatency([{ minute: 1000 + m, endpoint: 'e', bucket: 1, requests: 1 }]);
      const steps: number[] = [];
      for (let n; (n = await store.pruneStep(1180, t + 200_000, 60)) > 0;) steps.push(n);
      expect(steps).toEqual([60 + 3 + 2, 60, 60]);
      expect(await store.latencyWindow(0)).toEqual([]);
      expect((await store.uptimeIntervals(0, t + 200_000)).intervals).toEqual([]);
      await db.close();
    });
  });
}

describeNeeding('postgres')('two writers upserting the same rows', () => {
  // Item 11 of issue #14: rows written in different orders deadlocked two instances. Every batch
  // is now written in primary-key order, so opposite input orders cannot deadlock.
  it('never deadlock, whatever order their batches list the rows in', async () => {
    const s = await postgresSchema();
    cleanups.push(s.drop);
    const a = openDb({ DATA_DIR: 'unused', DATABASE_URL: s.url });
    const b = openDb({ DATA_DIR: 'unused', DATABASE_URL: s.url });
    await migrate(a);
    const rows = Array.from({ length: 200 }, (_, i) => ({
      key_id: `k${String(i).padStart(3, '0')}`,
      day: '2026-11-21',
      endpoint: '/v1/registry/assets',
      status_class: '2xx' as const,
      requests: 1,
    }));
    const sa = new Store(a);
    const sb = new Store(b);
    await sa.addUsage(rows);
    for (let round = 0; round < 5; round++) {
      await Promise.all([sa.addUsage(rows), sb.addUsage([...rows].reverse())]);
      await Promise.all([sa.addLatency(lat()), sb.addLatency(lat().reverse())]);
    }
    const usage = await sa.usage();
    expect(usage.every((r) => r.requests === 11)).toBe(true);
    await a.close();
    await b.close();
  });
  const lat = () =>
    Array.from({ length: 200 }, (_, i) => ({
      minute: 5000 + i,
      endpoint: 'e',
      bucket: 1,
      requests: 1,
    }));
});

describeNeeding('postgres')('store on postgres, connection lost', () => {
  it('rejects a transaction whose connection drops and keeps the process alive', async () => {
    const { url, proxy } = await proxiedPostgres(cleanups);
    const db = openDb({ DATA_DIR: 'unused', DATABASE_URL: url });
    // pg emits 'error' on a checked-out client when its connection ends: unheard, it would be an
    // uncaught exception here, which fails this run.
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      await migrate(db);
      const lost = db.transaction(async (tx) => {
        await tx.run('SELECT 1');
        proxy.cut();
        await new Promise((r) => setTimeout(r, 100));
        await tx.run('SELECT 1');
      });
      await expect(lost).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 100));
      expect(uncaught).toEqual([]);
      // Once the database is back, the pool opens a new connection for the next query.
      proxy.restore();
      expect(await db.all<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await db.close();
    }
  });
});

describeNeeding('postgres')('store on postgres, server hung', () => {
  // Issue #14 item 5: a server that accepts and never answers held queries (and everything
  // awaiting them) forever. Every query now has a deadline, on pooled and new connections alike.
  it('fails a query within its deadline and recovers once the server answers again', async () => {
    const { url, proxy } = await proxiedPostgres(cleanups);
    const db = openDb({ DATA_DIR: 'unused', DATABASE_URL: url, DB_QUERY_TIMEOUT_MS: 500 });
    try {
      await migrate(db);
      expect(await db.all('SELECT 1 AS n')).toEqual([{ n: 1 }]); // a pooled connection exists
      proxy.pause();
      for (const query of [
        () => db.all('SELECT 1 AS n'),
        () => db.transaction((tx) => tx.run('SELECT 1')),
      ]) {
        const t = Date.now();
        await expect(query()).rejects.toThrow();
        expect(Date.now() - t).toBeLessThan(3000);
      }
      const t = Date.now();
      await db.close();
      expect(Date.now() - t).toBeLessThan(2000);
    } finally {
      proxy.restore();
    }
    const again = openDb({ DATA_DIR: 'unused', DATABASE_URL: url, DB_QUERY_TIMEOUT_MS: 500 });
    expect(await again.all('SELECT 1 AS n')).toEqual([{ n: 1 }]);
    await again.close();
  });
});
