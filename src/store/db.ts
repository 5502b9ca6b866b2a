// The database driver interface: one portable SQL dialect (SQLite ≥ 3.24 and PostgreSQL share
// ON CONFLICT upserts) with `?` placeholders, behind two small drivers.
export type Param = string | number | null;

export interface Db {
  readonly driver: 'sqlite' | 'postgres';
  run(sql: string, params?: readonly Param[]): Promise<number>;
  all<T>(sql: string, params?: readonly Param[]): Promise<T[]>;
  /** Runs `fn` in one transaction; concurrent work waits (SQLite) or uses another connection (PostgreSQL). */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Runs `fn` while holding a lock that other processes sharing the database also respect. */
  withMigrationLock<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
