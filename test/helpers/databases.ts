// The databases the store tests run against: a fresh SQLite file, and — when TEST_DATABASE_URL
// is set (.ci/run sets it) — a fresh schema in a real PostgreSQL.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'];

if (process.env['CI'] && !TEST_DATABASE_URL) {
  throw new Error('TEST_DATABASE_URL must be set in CI: the PostgreSQL path is tested for real.');
}

export function sqliteDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'tai-store-'));
}

/** A new, empty schema; the URL returned selects it through search_path. */
export async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `tai_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
