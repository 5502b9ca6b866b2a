// Opens the service database named by the configuration and brings its schema up to date.
import path from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrations.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';
import { Store } from './store.ts';

export interface StoreConfig {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
  /** Every query's deadline (default 2 s): a hung or locked database fails instead of waiting. */
  DB_QUERY_TIMEOUT_MS?: number | undefined;
}

export function openDb(config: StoreConfig): Db {
  const queryTimeoutMs = config.DB_QUERY_TIMEOUT_MS ?? 2000;
  if (config.DATABASE_URL) return openPostgres(config.DATABASE_URL, { queryTimeoutMs });
  return openSqlite(path.resolve(config.DATA_DIR, 'tai.sqlite'), { queryTimeoutMs });
}

/** Where the database is, without credentials, for logs and messages. */
export function describeDb(config: StoreConfig): string {
  if (!config.DATABASE_URL) return `sqlite:${path.resolve(config.DATA_DIR, 'tai.sqlite')}`;
  try {
    const u = new URL(config.DATABASE_URL);
    return `postgres://${u.host}${u.pathname}`;
  } catch {
    return 'postgres (unparseable URL)';
  }
}

export async function openStore(config: StoreConfig): Promise<Store> {
  const db = openDb(config);
  await migrate(db);
  return new Store(db);
}
